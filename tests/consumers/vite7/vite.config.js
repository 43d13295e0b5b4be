import { defineConfig } from "vite";

export default defineConfig({
  optimizeDeps: { exclude: ["columns-wasm"] },
});
