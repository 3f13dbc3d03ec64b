// The web console: a static build served by the gateway under /console (decision 0033).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: path.join(here, '..', '..', 'dist', 'apps', 'console'),
    emptyOutDir: true,
    sourcemap: true,
  },
});
