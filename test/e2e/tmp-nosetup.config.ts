import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config';
const config = mergeConfig(base, {});
config.test!.globalSetup = [];
export default defineConfig(config);
