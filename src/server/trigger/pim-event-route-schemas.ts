import { z } from "zod";
import { pimEventSchema } from "../../features/events/pim-event.js";
import { answer, refusals } from "../openapi/answer-schemas.js";
import { routeSchema } from "../openapi/route-schema.js";

const projectParams = z.object({ project: z.string().describe("the project id the subscription's URL names") });

const signatureHeaders = z.object({
  "x-akeneo-signature-primary": z.string().optional().describe("hex HMAC-SHA256 of the raw body with the subscription's secret"),
  "x-akeneo-signature-secondary": z.string().optional().describe("the same with the second secret, during a rotation"),
  "x-correlation-id": z.string().optional().describe("recorded with the event"),
});

export const pimEventRouteSchema = routeSchema({
  summary: "Receive a PIM event from the Akeneo Event Platform",
  description:
    "Authenticated by the body's HMAC signature, not a bearer token. An accepted event is recorded (deduplicated by its id) and answered at once; the targeted sync runs later in the project's queue. The same path answers HEAD (200 for a project with a subscription, 404 otherwise), as the platform checks a URL before it accepts it; HEAD routes are left out of this description.",
  tags: ["events"],
  params: projectParams,
  headers: signatureHeaders,
  body: pimEventSchema,
  answers: {
    200: answer(
      "recorded, a duplicate of an event already recorded, recorded and ignored (a type pim-sync does not sync on), or recorded and unusable (a type it syncs on whose data lacks the codes it needs: `reason` names them; counted and logged, answered 200 as the platform would only send it again)",
      z.object({
        status: z.enum(["recorded", "duplicate", "ignored", "unusable"]),
        reason: z.string().optional().describe("for `unusable`: which field of `data` is missing"),
      }),
    ),
    ...refusals(400, 401, 403, 404, 503),
  },
});
