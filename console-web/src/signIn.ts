import { signInWithEmailAndPassword, type Auth } from "firebase/auth";
import { inWords } from "./api";
import { fill, h } from "./dom";

export function signInPage(main: HTMLElement, auth: Auth): void {
  const email = h("input", {
    id: "email",
    type: "email",
    name: "email",
    autocomplete: "username",
    required: true,
  });
  const password = h("input", {
    id: "password",
    type: "password",
    name: "password",
    autocomplete: "current-password",
    required: true,
  });
  const error = h("div", { id: "sign-in-error", "aria-live": "assertive" });
  const form = h(
    "form",
    {
      "aria-describedby": "sign-in-help",
      onsubmit: (event: Event) => {
        event.preventDefault();
        fill(error);
        signInWithEmailAndPassword(auth, email.value.trim(), password.value).catch((err: unknown) =>
          fill(error, h("p", { class: "error", role: "alert" }, inWords(err))),
        );
      },
    },
    h("label", { for: "email" }, "E-mail address"),
    email,
    h("label", { for: "password" }, "Password"),
    password,
    h("div", { class: "row" }, h("button", { type: "submit" }, "Sign in")),
    error,
  );
  fill(
    main,
    h("h1", {}, "Sign in"),
    h(
      "p",
      { id: "sign-in-help" },
      "Sign in with your account to manage your company's API access, keys and audit trail.",
    ),
    form,
  );
}
