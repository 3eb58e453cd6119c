import appStylesUrl from './app-styles.css?url';

/**
 * The login page's stylesheet (login-styles.css, imported by main.tsx), which index.html only
 * preloads (its first paint needs none of it: vite.config.ts): applies it, and resolves once it has
 * loaded. In development Vite adds the styles itself.
 */
export function applyLoginStyles(): Promise<void> {
  const preload = document.querySelector<HTMLLinkElement>('link[rel="preload"][data-login-styles]');
  if (!preload) return Promise.resolve();
  return new Promise((resolve) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.crossOrigin = preload.crossOrigin;
    sheet.href = preload.href;
    sheet.dataset.loginStyles = '';
    sheet.onload = () => resolve();
    // A stylesheet that fails to load leaves the app usable, if plain.
    sheet.onerror = () => resolve();
    document.head.append(sheet);
  });
}

let appStyles: Promise<void> | null = null;

/**
 * The rest of the app's styles (app-styles.css: all of Mantine's, its toasts' and date pickers'),
 * loaded once, by every chunk that draws beyond the login page (the signed-in shell, each page, the
 * two-factor forms, the toasts) before it renders: issue 30 keeps them off the login page. It goes
 * right after the login page's stylesheet, before any a page brings (the dashboard's grid, the
 * maps'), so the cascade is the same whatever loaded first. Resolves once it has loaded (or failed).
 */
export function loadAppStyles(): Promise<void> {
  appStyles ??= import.meta.env.DEV
    ? // Vite's development server (and the tests) add a stylesheet that a module imports.
      import('./app-styles.css').then(() => undefined)
    : new Promise((resolve) => {
        const sheet = document.createElement('link');
        sheet.rel = 'stylesheet';
        sheet.href = appStylesUrl;
        sheet.onload = () => resolve();
        sheet.onerror = () => resolve();
        const login = document.querySelector('link[rel="stylesheet"][data-login-styles]');
        if (login) login.after(sheet);
        else document.head.append(sheet);
      });
  return appStyles;
}
