/**
 * The simulator's own control routes, under `/sim` (not part of Akeneo's API): what a test does
 * through `state` and `events.emit`, for a user of `pim-sync sim` in another process. The PIM's
 * REST API cannot delete an attribute option (reference §5: only GET and PATCH), yet a deletion
 * is what an option's removal in the PIM's UI or an import looks like to pim-sync, so
 * `DELETE /sim/attributes/:code/options/:option` removes it from the live catalogue and announces
 * `attribute-option.deleted`, as the Event Platform would. No token: the simulator is a local tool.
 */
import { jsonReply, emptyReply } from "../../shared/replies.js";
import { paramOf } from "../../shared/router.js";
import { optionEventData } from "../pim-event-emitter.js";
import { NOTIFICATION_TYPES, type NotificationAction } from "../subscription-notifier.js";
import type { PimRouteContext, PimRouter } from "../pim-route.js";
import { findAttribute, sameCode } from "../pim-state.js";

export const SIM_CONTROL_PREFIX = "/sim";

export function addSimControlRoutes(router: PimRouter, { state, events, subscription }: PimRouteContext): void {
  // The Event Platform's notification webhook, for a user of `pim-sync sim --notifications-to`:
  // POST /sim/subscription/suspend (or suspend-user, revoke, resume) posts the signed notification
  // and answers what the receiver answered.
  router.add("POST", `${SIM_CONTROL_PREFIX}/subscription/:action`, {
    public: true,
    handle: async (_request, params) => {
      const action = paramOf(params, "action");
      if (!Object.hasOwn(NOTIFICATION_TYPES, action))
        return jsonReply(404, { message: `no subscription action "${action}": ${Object.keys(NOTIFICATION_TYPES).join(", ")}` });
      if (!subscription.configured())
        return jsonReply(409, { message: "no notification URL: start the simulator with --notifications-to and --notifications-secret" });
      try {
        const posted = await subscription.notify(action as NotificationAction);
        return jsonReply(200, { notification: JSON.parse(posted.body) as unknown, answered: posted.status });
      } catch (error) {
        return jsonReply(502, { message: `the notification was not delivered: ${error instanceof Error ? error.message : String(error)}` });
      }
    },
  });

  router.add("DELETE", `${SIM_CONTROL_PREFIX}/attributes/:code/options/:option`, {
    public: true,
    handle: (_request, params) => {
      const attributeCode = paramOf(params, "code");
      const optionCode = paramOf(params, "option");
      const attribute = findAttribute(state, attributeCode);
      if (attribute === undefined) return jsonReply(404, { message: `Attribute "${attributeCode}" does not exist.` });
      const options = state.attribute_options[attribute.code] ?? [];
      const index = options.findIndex((option) => sameCode(option.code, optionCode));
      const found = options[index];
      if (found === undefined)
        return jsonReply(404, { message: `Option "${optionCode}" of attribute "${attribute.code}" does not exist.` });
      options.splice(index, 1);
      events.emit("attribute-option.deleted", optionEventData(attribute.code, found.code));
      return emptyReply(204);
    },
  });
}
