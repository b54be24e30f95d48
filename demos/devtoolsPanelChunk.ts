/** The devtools panel's chunk (see devtoolsPanel.ts): imported dynamically, so only that import loads it. */
export { mountDevtools } from 'rx-rest/devtools';
