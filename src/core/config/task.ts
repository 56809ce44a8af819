/**
 * A lane's task (swarm.yaml `task:`, `swarm lane add --task`). Pure.
 *
 * Decision: a task is at most MAX_TASK_BYTES (32 KiB) of UTF-8. It is written into the prompt and
 * handed to each pane in $SWARM_TASK, and Linux refuses to exec with one environment string over
 * 128 KiB (E2BIG): the lane would validate and never start. Long text belongs in PLAN.md.
 */

export const MAX_TASK_BYTES = 32 * 1024;

/** Why the task is too long (its size, the limit, what to do), or null when it fits. */
export function taskTooLong(task: string): string | null {
  const bytes = new TextEncoder().encode(task).length;
  if (bytes <= MAX_TASK_BYTES) return null;
  return `is ${bytes} bytes, over the ${MAX_TASK_BYTES} (32 KiB) a task may have: put the long text in PLAN.md and make the task point to it, e.g. task: "Steps 1-3 of PLAN.md"`;
}
