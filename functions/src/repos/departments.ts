import { companyRef } from "./companies";

/** `companies/{companyId}/departments/{id}`, as far as the APIs use it. */
export interface Department {
  id: string;
  name: string;
}

export async function departmentsOf(companyId: string): Promise<Department[]> {
  const snap = await companyRef(companyId).collection("departments").get();
  return snap.docs.flatMap((d) =>
    typeof d.get("name") === "string" ? [{ id: d.id, name: d.get("name") as string }] : [],
  );
}
