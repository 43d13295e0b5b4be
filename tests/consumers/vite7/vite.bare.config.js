// The same app without the one line the README asks for: the dev server
// must then fail with an error that names it.
import { defineConfig } from "vite";

export default defineConfig({});
