/** Types of soak.mjs for its tests. */
export const STEPS: number;
export const SPARE_STEPS: number;
export function soakPlan(minutes: number): { minutes: number; stepMs: number; firstQuota: Record<string, number> };
export function soakYaml(plan: { stepMs: number; firstQuota: Record<string, number> }): string;
export function memoryOf(status: string): { rssKb: number; hwmKb: number };
export function ticksOf(stat: string): { utime: number; stime: number; cutime: number; cstime: number; start: string };
