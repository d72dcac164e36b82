/**
 * "Install app": keeps the browser's beforeinstallprompt event (Chromium browsers) from the moment the page
 * loads, since it fires once and usually before /home/more is open, and knows whether Strata already runs
 * installed. Browsers without the event (iOS Safari, Firefox) get written instructions instead.
 */
import { useSyncExternalStore } from 'react';
import { valueStore } from './store';

/** The non-standard event Chromium fires when the app meets its install criteria. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

export type InstallOutcome = 'accepted' | 'dismissed' | 'unavailable';
export type InstallPlatform = 'ios' | 'other';

export interface InstallState {
  /** The browser offered an install prompt we can show. */
  canPrompt: boolean;
  /** Running from the home screen, or installed during this visit. */
  installed: boolean;
}

const state = valueStore<InstallState>({ canPrompt: false, installed: false });
let deferred: BeforeInstallPromptEvent | undefined;
let listening = false;

function isBeforeInstallPrompt(event: Event): event is BeforeInstallPromptEvent {
  return 'prompt' in event && typeof event.prompt === 'function';
}

export function runningStandalone(win: Window = window): boolean {
  const iosStandalone = (win.navigator as Navigator & { standalone?: boolean }).standalone === true;
  return (
    iosStandalone ||
    (typeof win.matchMedia === 'function' && win.matchMedia('(display-mode: standalone)').matches)
  );
}

/** Start once at boot (src/pwa/bootstrap.ts), before the event can fire. */
export function listenForInstallPrompt(win: Window = window): void {
  if (listening) return;
  listening = true;
  state.set({ canPrompt: false, installed: runningStandalone(win) });
  win.addEventListener('beforeinstallprompt', (event) => {
    if (!isBeforeInstallPrompt(event)) return;
    // Keep the mini-infobar away: the member installs from /home/more when they choose to.
    event.preventDefault();
    deferred = event;
    state.set({ ...state.get(), canPrompt: true });
  });
  win.addEventListener('appinstalled', () => {
    deferred = undefined;
    state.set({ canPrompt: false, installed: true });
  });
}

export async function promptInstall(): Promise<InstallOutcome> {
  const event = deferred;
  if (!event) return 'unavailable';
  // The event can be used once.
  deferred = undefined;
  state.set({ ...state.get(), canPrompt: false });
  await event.prompt();
  const { outcome } = await event.userChoice;
  if (outcome === 'accepted') state.set({ canPrompt: false, installed: true });
  return outcome;
}

export function installPlatform(
  userAgent: string = navigator.userAgent,
  maxTouchPoints = navigator.maxTouchPoints,
): InstallPlatform {
  // iPadOS reports a Mac user agent; touch points tell it apart.
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return ios ? 'ios' : 'other';
}

export function useInstallPrompt(): InstallState & {
  platform: InstallPlatform;
  install: () => Promise<InstallOutcome>;
} {
  const current = useSyncExternalStore(state.subscribe, state.get, state.get);
  return { ...current, platform: installPlatform(), install: promptInstall };
}

/** For tests: back to a fresh page. */
export function resetInstallForTests(): void {
  deferred = undefined;
  listening = false;
  state.set({ canPrompt: false, installed: false });
}
