/** The fleet of issue 18: W worker processes of concurrency C, P projects behind one account and one connection. */
export const FLEET_PROCESSES = 4;
export const FLEET_CONCURRENCY = 2;
export const FLEET_PROJECTS = 16;
