import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

/**
 * The one zod instance of the code base, extended with `.openapi()` so the schemas that
 * validate are the schemas that document. Import `z` from here, never from "zod".
 */
extendZodWithOpenApi(z);

export { z };
