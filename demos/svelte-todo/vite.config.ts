import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { demoConfig } from '../vite.shared.js';

export default defineConfig(demoConfig(import.meta.url, [svelte()], 3211));
