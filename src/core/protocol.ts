/** The report vocabulary of SPEC 4.2 and the capacity line. */
export type CapacityState = 'ok' | 'low' | 'critical' | 'unknown';
