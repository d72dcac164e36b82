/** Modules made by scripts/vite-locale-parts.ts. */
declare module 'virtual:locale-parts' {
  export const loaders: Record<string, () => Promise<{ default: Record<string, unknown> }>>;
}
