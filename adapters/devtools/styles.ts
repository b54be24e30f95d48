/** The panel's stylesheet: isolated in its shadow root, light and dark (`prefers-color-scheme`). */

/** Where the toggle and the panel sit in the viewport. */
export type DevtoolsPosition = 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';

export const STYLES = `
:host { all: initial; }
.root {
  --bg: #ffffff; --fg: #1d2433; --muted: #5b6478; --line: #d9dde6; --accent: #2458c6; --hover: #eef2fa;
  --selected: #dce6fb; --fresh: #137a3a; --stale: #9a6a00; --fetching: #2458c6; --paused: #6b4bb5;
  --error: #c0262d; --invalid: #a1461b;
  font: 12px/1.4 ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  position: fixed; z-index: 2147483000; display: flex; flex-direction: column; gap: 6px;
}
@media (prefers-color-scheme: dark) {
  .root {
    --bg: #161b26; --fg: #e4e8f1; --muted: #9aa3b7; --line: #2e3646; --accent: #7aa7ff; --hover: #1f2636;
    --selected: #27375a; --fresh: #5fd38d; --stale: #f0c060; --fetching: #7aa7ff; --paused: #b9a0ff;
    --error: #ff7b80; --invalid: #ff9f6e;
  }
}
.root.bottom-right { right: 12px; bottom: 12px; align-items: flex-end; flex-direction: column-reverse; }
.root.bottom-left { left: 12px; bottom: 12px; align-items: flex-start; flex-direction: column-reverse; }
.root.top-right { right: 12px; top: 12px; align-items: flex-end; }
.root.top-left { left: 12px; top: 12px; align-items: flex-start; }
button { font: inherit; color: inherit; cursor: pointer; }
button:focus-visible, input:focus-visible, tr:focus-visible, [role="tab"]:focus-visible {
  outline: 2px solid var(--accent); outline-offset: -2px;
}
.toggle {
  background: var(--bg); border: 1px solid var(--line); border-radius: 999px; padding: 6px 12px;
  font-weight: 600; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.2);
}
.panel {
  background: var(--bg); border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 6px 24px rgba(0, 0, 0, 0.25);
  width: min(760px, calc(100vw - 24px)); height: min(460px, calc(100vh - 72px)); display: flex; flex-direction: column;
  overflow: hidden;
}
.panel[hidden] { display: none; }
.bar { display: flex; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--line); }
.bar [role="tablist"] { display: flex; gap: 2px; }
[role="tab"] { background: none; border: 0; border-bottom: 2px solid transparent; padding: 4px 8px; }
[role="tab"][aria-selected="true"] { border-bottom-color: var(--accent); color: var(--accent); font-weight: 600; }
.filter { flex: 1; min-width: 60px; background: var(--bg); color: var(--fg); border: 1px solid var(--line); border-radius: 4px; padding: 3px 6px; font: inherit; }
.action { background: var(--hover); border: 1px solid var(--line); border-radius: 4px; padding: 3px 8px; }
.action:disabled { opacity: 0.5; cursor: default; }
.danger { color: var(--error); }
[role="tabpanel"] { flex: 1; overflow: auto; display: flex; flex-direction: column; min-height: 0; }
[role="tabpanel"][hidden] { display: none; }
.split { display: flex; flex: 1; min-height: 0; }
.split > * { flex: 1; overflow: auto; min-width: 0; }
.split > * + * { border-left: 1px solid var(--line); }
table { border-collapse: collapse; width: 100%; }
th { position: sticky; top: 0; background: var(--bg); text-align: left; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); }
th, td { padding: 3px 8px; white-space: nowrap; }
td.key { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow: hidden; text-overflow: ellipsis; max-width: 320px; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: var(--hover); }
tbody tr[aria-selected="true"] { background: var(--selected); }
.num { text-align: right; }
.state-fresh { color: var(--fresh); } .state-stale { color: var(--stale); } .state-fetching { color: var(--fetching); }
.state-paused { color: var(--paused); } .state-error { color: var(--error); } .state-invalid { color: var(--invalid); }
.detail { padding: 8px; display: flex; flex-direction: column; gap: 6px; }
.detail h3 { margin: 4px 0 0; font-size: 12px; color: var(--muted); }
.detail .buttons { display: flex; gap: 6px; flex-wrap: wrap; }
pre { margin: 0; padding: 6px; background: var(--hover); border-radius: 4px; font: 11px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; word-break: break-all; }
.links { display: flex; flex-wrap: wrap; gap: 4px; }
.link { background: none; border: 1px solid var(--line); border-radius: 4px; padding: 1px 6px; font-family: ui-monospace, monospace; }
.note { color: var(--muted); padding: 6px 8px; }
.layers { border-bottom: 1px solid var(--line); padding: 4px 8px; }
`;
