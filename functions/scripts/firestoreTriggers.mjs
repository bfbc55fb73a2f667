// Registers the Functions emulator's Firestore triggers with our own Firestore emulator.
// firebase-tools registers a Firestore trigger only with a Firestore emulator it started itself
// (see ENVIRONMENT notes in docs/development.md); ours runs apart (Java 17), so we send what it
// would have sent: for each 2nd-gen document trigger the Functions emulator lists at
// `GET /backends`, `POST /emulator/v1/projects/P/eventarcTrigger?eventarcTriggerId=KEY` with the
// trigger's event type, database, namespace and document pattern. The Firestore emulator was
// started with `--functions_emulator=HOST:PORT` and then posts each matching write as a
// CloudEvent to `/functions/projects/P/triggers/KEY` on that port.

/** The 2nd-gen Firestore triggers the Functions emulator loaded from the built code. */
export async function firestoreTriggers(functionsHost) {
  const res = await fetch(`http://${functionsHost}/backends`, {
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`GET /backends answered ${res.status}`);
  const { backends } = await res.json();
  return backends
    .flatMap((backend) => backend.functionTriggers ?? [])
    .filter((t) => t.eventTrigger?.eventType?.startsWith("google.cloud.firestore.document.v1."));
}

function registration(trigger) {
  const { eventType, eventFilters = {}, eventFilterPathPatterns = {} } = trigger.eventTrigger;
  const pattern = eventFilterPathPatterns.document;
  return {
    // The emulator's trigger key: `<function id>-<generation>`; the generation is 0 until the
    // Functions emulator reloads changed code (then restart the stack).
    key: `${trigger.id}-0`,
    body: {
      eventType,
      database: eventFilters.database ?? "(default)",
      namespace: eventFilters.namespace ?? "(default)",
      document: {
        value: pattern ?? eventFilters.document,
        matchType: pattern ? "PATH_PATTERN" : "EXACT",
      },
    },
  };
}

/** Registers every trigger; returns their names. */
export async function registerFirestoreTriggers(firestoreHost, functionsHost, projectId) {
  const triggers = await firestoreTriggers(functionsHost);
  for (const trigger of triggers) {
    const { key, body } = registration(trigger);
    const res = await fetch(
      `http://${firestoreHost}/emulator/v1/projects/${projectId}/eventarcTrigger?eventarcTriggerId=${encodeURIComponent(key)}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
    );
    if (!res.ok)
      throw new Error(`registering trigger ${key} failed: ${res.status} ${await res.text()}`);
  }
  return triggers.map((t) => t.id);
}
