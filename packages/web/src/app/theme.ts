import {
  CloseButton,
  type CloseButtonProps,
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  Loader,
  type LoaderProps,
  type ModalProps,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Text on the light variants (status badges, light buttons) is Mantine's shade darkened until it
 * reads at 4.5:1 or better on its tint (WCAG 2.2 AA): green, teal, yellow and orange fell near 3:1.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const shade = input.theme.colors[parsed.color][9];
  const amount = ['yellow', 'orange', 'lime'].includes(parsed.color) ? 0.45 : ['green', 'teal', 'cyan'].includes(parsed.color) ? 0.3 : 0.1;
  return { ...colors, color: darken(shade, amount) };
};

/**
 * The app's one theme (the console and its screen tests). The primary blue is shade 8 (4.9:1 on
 * white; shade 6 was 3.55:1), so buttons and links read at AA.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 6 },
  // Filled colours (series chips, badges, buttons) take black or white text by their luminance, at
  // the point where the two contrast equally (WCAG's crossover, 0.18): white on the amber or green
  // chips was 2-3:1.
  autoContrast: true,
  luminanceThreshold: 0.18,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  variantColorResolver,
  components: {
    // Every close button (dialogs, toasts, drawers, alerts) is named: it was an unnamed button (axe: button-name, critical).
    // (Its props' type leaves out the button's own attributes, which it passes on to the button.)
    CloseButton: CloseButton.extend({ defaultProps: { 'aria-label': 'Close' } as Partial<CloseButtonProps> }),
    // A dialog that opens takes the focus to its title (read out first), not to its close button,
    // the first thing the focus trap found; Tab goes on to its close button and fields.
    // A spinner named for what loads is a status (a name on a plain span is not allowed: axe aria-prohibited-attr).
    Loader: Loader.extend({ defaultProps: { role: 'status' } as Partial<LoaderProps> }),
    // The toast and the dialog are themed by name, not through their components' extend(): importing
    // Modal here put it, its scroll area and floating-ui on the login page (issue 30).
    // A toast's text is dimmed gray 7 (Mantine's gray 6 read at 3.3:1 on white).
    Notification: { styles: { description: { color: 'var(--mantine-color-dimmed)' } } },
    Modal: { defaultProps: { attributes: { title: { 'data-autofocus': true, tabIndex: -1 } } } satisfies Partial<ModalProps> },
  },
});

/**
 * Dimmed text is gray 7 (7:1 on white; gray 6 was 3.3:1). Placeholders (the date pickers' 'Pick
 * date'…) are #6c757d, 4.7:1 on white (Mantine's gray 5 was 2.1:1), lighter than a value still.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--mantine-color-dimmed': t.colors.gray[7], '--mantine-color-placeholder': '#6c757d' },
  dark: {},
});
