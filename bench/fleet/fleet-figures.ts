/**
 * The fleet's figures from what the simulators recorded while the fleet ran: its 429s, the
 * service's busiest second, the PIM connection's most calls in flight, and the wall time against
 * the floor the shared budgets allow for the requests that were made.
 */
import type { RecordedRequest } from "../../sim/shared/request-log.js";
import { computeFloor, REAL_BUDGETS, type Floor } from "../floor/compute-floor.js";
import { peakInWindow, peakOverlap } from "./upstream-peaks.js";

/** The service counts its 10 requests over one second. */
const SERVICE_WINDOW_MS = 1000;

export interface FleetFigures {
  readonly fleet_429s: number;
  readonly fleet_peak_service_rps: number;
  readonly fleet_peak_pim_in_flight: number;
  readonly fleet_ratio: number;
  readonly floor: Floor;
  readonly pimRequests: number;
  readonly serviceRequests: number;
}

type Recorded = Pick<RecordedRequest, "startedAt" | "endedAt" | "status" | "authScheme">;

export function fleetFigures(args: {
  readonly pim: readonly Recorded[];
  readonly service: readonly Recorded[];
  readonly wallMs: number;
  readonly latencyMs: number;
}): FleetFigures {
  const floor = computeFloor({ pim: args.pim.length, service: args.service.length }, args.latencyMs, REAL_BUDGETS);
  const rateLimited = [...args.pim, ...args.service].filter((request) => request.status === 429).length;
  return {
    fleet_429s: rateLimited,
    fleet_peak_service_rps: peakInWindow(
      args.service.map((request) => request.startedAt),
      SERVICE_WINDOW_MS,
    ),
    // The PIM counts a connection's calls in flight with its token: the token requests themselves
    // (Basic) are not calls of the connection.
    fleet_peak_pim_in_flight: peakOverlap(args.pim.filter((request) => request.authScheme === "Bearer")),
    fleet_ratio: floor.seconds > 0 ? args.wallMs / (floor.seconds * 1000) : Number.NaN,
    floor,
    pimRequests: args.pim.length,
    serviceRequests: args.service.length,
  };
}
