/**
 * The lanes of a swarm, as far as its files say: the lead's name and the lanes of swarm.yaml, the lead
 * and lanes lead.json records (a successor lead's name, lanes the lead added), and the lanes the engine
 * added at run time (.swarm/state.json `added`). Pure: the names are passed in.
 */
export interface LaneSources {
  leadName: string;
  configLanes: readonly string[];
  recordLead: string | null;
  recordLanes: readonly string[];
  addedLanes: readonly string[];
}

/** Every known name once, in that order (the lead first). */
export function swarmLanes(sources: LaneSources): string[] {
  const names = [sources.leadName, ...sources.configLanes, ...(sources.recordLead ? [sources.recordLead] : []), ...sources.recordLanes, ...sources.addedLanes];
  return [...new Set(names)];
}

/** `name` exactly as one of the known lanes (no trimming, no case folding), or why not. */
export function checkLaneName(name: string, known: readonly string[], swarm: string): { ok: true } | { ok: false; message: string } {
  if (known.includes(name)) return { ok: true };
  return { ok: false, message: `${JSON.stringify(name)} is no lane of swarm ${swarm} (its lanes: ${known.join(', ')})` };
}
