/** Chromium's CPU profiles (`Profiler.stop`), summed per function, for count.ts and profile.ts. */

/** A node of a CPU profile's call tree. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A CPU profile as `Profiler.stop` returns it. */
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const add = (map: Map<string, number>, key: string, value: number) => map.set(key, (map.get(key) ?? 0) + value);

/**
 * Adds a profile's samples to `self` and `total`: milliseconds per function (its name and file:line), each function
 * counted once per stack in `total`.
 */
export function summarize(profile: Profile, self: Map<string, number>, total: Map<string, number>): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) =>
    `${functionName || '(anonymous)'} ${url.split('/').pop() ?? ''}:${lineNumber + 1}`;
  profile.samples.forEach((sample, k) => {
    const ms = (profile.timeDeltas[k + 1] ?? 0) / 1000;
    add(self, label(byId.get(sample)!), ms);
    const seen = new Set<string>();
    for (let at: number | undefined = sample; at !== undefined; at = parent.get(at)) {
      const l = label(byId.get(at)!);
      if (!seen.has(l)) add(total, l, ms);
      seen.add(l);
    }
  });
}
