/**
 * Tells msgpackr (BullMQ's) not to look for its native string decoder, unless the operator set
 * `MSGPACKR_NATIVE_ACCELERATION_DISABLED` themselves. Looking for it loads a platform probe
 * (detect-libc, which loads child_process) and a native addon at every command's start, about
 * 15 ms of a `jobs list` (docs/cli.md, "Start time"), and it only speeds up decoding large
 * messages: pim-sync's job data and BullMQ's script arguments are small.
 */
export function preferPlainMsgpack(env: NodeJS.ProcessEnv): void {
  env["MSGPACKR_NATIVE_ACCELERATION_DISABLED"] ??= "true";
}
