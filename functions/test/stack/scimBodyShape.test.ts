import { seedCompany, seedKey } from "../support/builders";

/*
 * Through the real Functions runtime, which hands an `application/scim+json` body to the API as
 * raw bytes: a body that is JSON but not an object is a SCIM 400 `invalidSyntax` there too.
 */
const COMPANY = process.env.COMPANY_API_URL!;

it("a SCIM POST whose body is a JSON array or number is 400 invalidSyntax", async () => {
  const companyId = await seedCompany({ seatCapacity: 5, seatsUsed: 0 });
  const { key } = await seedKey({ api: "company", companyId, scopes: ["read", "provisioning"] });
  for (const body of ["[]", "1"]) {
    const res = await fetch(`${COMPANY}/scim/v2/Users`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/scim+json" },
      body,
    });
    const answer = (await res.json()) as { status: string; scimType: string };
    expect([res.status, answer.status, answer.scimType]).toEqual([400, "400", "invalidSyntax"]);
  }
});
