/** Types of bench/night.mjs, for the tests that use it. */
export declare const HOSTILE: string;
export declare function writeNight(
  planDir: string,
  options?: { lanes?: number; generations?: number; hostile?: boolean; start?: string; usage?: boolean },
): { lanes: string[]; generations: number; journalLines: number; inboxLines: number };
