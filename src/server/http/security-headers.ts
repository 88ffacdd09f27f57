import helmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * The headers every answer carries: no framing (frame-ancestors 'none' and X-Frame-Options
 * DENY), nosniff, no referrer, no caching. HSTS is left to the TLS-terminating proxy in front:
 * sent from here it would bind every subdomain of the host it happens to be served under.
 * `upgrade-insecure-requests` is left out too: the dashboard is often reached over plain HTTP
 * inside a cluster, where it would send the browser to https for every script.
 */
const COMMON = {
  xFrameOptions: { action: "deny" },
  strictTransportSecurity: false,
  referrerPolicy: { policy: "no-referrer" },
} as const;

/** Everything but the dashboard answers JSON or text: its pages may load nothing at all. */
export const API_HEADERS = {
  ...COMMON,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
  },
} satisfies FastifyHelmetOptions;

/**
 * The dashboard (bull-board's UI): its own scripts, styles and API only. Inline styles stay
 * allowed (its loading screen and components use them); inline and foreign scripts do not. Its
 * page's link to web fonts on a foreign host is removed before it is sent (admin-routes.ts) and
 * would be refused here anyway: the UI uses the system fonts, and no admin's visit is reported
 * to that host.
 */
export const DASHBOARD_HEADERS = {
  ...COMMON,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  },
} satisfies FastifyHelmetOptions;

/**
 * The operator console (`/admin/console`): its own script and stylesheet only, no inline script
 * or style at all (the pages are server-rendered, their chart an SVG of attributes), its JSON
 * from this server; nothing from another origin.
 */
export const CONSOLE_HEADERS = {
  ...COMMON,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      baseUri: ["'none'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
  },
} satisfies FastifyHelmetOptions;

/** The server-wide headers (the dashboard's routes replace them with DASHBOARD_HEADERS). */
export function securityHeaders(app: FastifyInstance): void {
  void app.register(helmet, { global: true, ...API_HEADERS });
  // Answers carry job data and credentials-guarded pages: no browser or proxy keeps them.
  app.addHook("onSend", async (_request, reply) => {
    void reply.header("cache-control", "no-store");
  });
}
