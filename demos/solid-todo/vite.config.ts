import solid from 'vite-plugin-solid';
import { defineConfig } from 'vite';
import { demoConfig } from '../vite.shared.js';

export default defineConfig(demoConfig(import.meta.url, [solid()], 3212));
