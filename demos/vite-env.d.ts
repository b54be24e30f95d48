/// <reference types="vite/client" />
// The demo apps import CSS through vite.
