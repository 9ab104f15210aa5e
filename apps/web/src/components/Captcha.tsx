import { ERRORS } from '@exchange/shared';
import { Input, Loader, Text } from '@mantine/core';
import type {} from 'altcha/types/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAPTCHA_CHALLENGE_URL, useCaptchaConfig } from '../api/captcha.ts';
import { ApiError } from '../api/client.ts';
import { t as translate } from '../i18n/index.ts';

/**
 * The captcha (docs/accounts.md#screens, #validation): nothing for `none`; for `altcha` the self-hosted ALTCHA widget (an
 * "I'm not a robot" checkbox: a click fetches a signed challenge from our server and solves its SHA-256
 * proof of work in Web Workers); for `recaptcha` only a notice, as the reCAPTCHA script lives on Google's
 * servers and this build loads no external scripts.
 */

/** Options of every widget: our words instead of the vendor's footer and logo, no interaction tracking. */
const WIDGET_OPTIONS = { hideFooter: true, hideLogo: true, humanInteractionSignature: false };

let altchaLoaded: Promise<void> | undefined;

/** Loads the ALTCHA web component (its own chunk, fetched only when the server asks for ALTCHA) once. */
function loadAltcha(): Promise<void> {
  altchaLoaded ??= import('altcha').then(
    () => {
      // The widget draws its (invisible until checked) tick mark over the box; clicks must reach the box.
      const style = document.createElement('style');
      style.textContent = 'altcha-widget .altcha-checkbox svg { pointer-events: none; }';
      document.head.append(style);
      globalThis.$altcha.i18n.set('en', {
        ...globalThis.$altcha.i18n.get('en'),
        label: translate('captcha.label'),
        verifying: translate('captcha.verifying'),
        verified: translate('captcha.verified'),
        waitAlert: translate('captcha.wait'),
        error: translate('captcha.failed'),
        expired: translate('captcha.expired'),
        loading: translate('captcha.loading'),
      });
    },
    (err: unknown) => {
      altchaLoaded = undefined;
      throw err;
    },
  );
  return altchaLoaded;
}

/** The answer of a verified widget, from its `statechange` event; undefined in every other state. */
function responseOf(event: Event): string | undefined {
  const { payload, state } = (event as CustomEvent<{ payload?: string | null; state?: string }>).detail ?? {};
  return state === 'verified' && payload ? payload : undefined;
}

interface CaptchaProps {
  /** The value for `captcha_response` once solved; undefined when cleared, expired or failed. */
  onChange: (response: string | undefined) => void;
  /** Changing it clears the widget (after a failed call: each answer is accepted once). */
  resetKey?: number;
  /** Shown under the widget (e.g. "Verify the captcha"). */
  error?: string;
}

/** The captcha of a form, as the server's `/identity/configs` asks for it. */
export function Captcha({ onChange, resetKey = 0, error }: CaptchaProps) {
  const { t } = useTranslation();
  const { data: config } = useCaptchaConfig();
  const type = config?.captcha_type;
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef(onChange);
  const shownReset = useRef(resetKey);

  useEffect(() => {
    latest.current = onChange;
  }, [onChange]);

  useEffect(() => {
    if (type !== 'altcha') return;
    let live = true;
    loadAltcha().then(
      () => live && setLoaded(true),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [type]);

  // A new reset key remounts the widget (below, as its React key); the answer it held is gone.
  useEffect(() => {
    if (shownReset.current === resetKey) return;
    shownReset.current = resetKey;
    latest.current(undefined);
  }, [resetKey]);

  // Follows the widget's state: its answer once verified, undefined again when it resets or expires.
  const attach = useCallback((element: HTMLElement | null) => {
    if (!element) return;
    const listener = (event: Event) => latest.current(responseOf(event));
    element.addEventListener('statechange', listener);
    return () => element.removeEventListener('statechange', listener);
  }, []);

  if (!type || type === 'none') return null;
  return (
    <Input.Wrapper error={error} data-testid="captcha">
      {type === 'recaptcha' ? (
        <Text size="sm" c="dimmed">
          {t('captcha.recaptchaUnavailable')}
        </Text>
      ) : failed ? (
        <Text size="sm" c="red">
          {t('captcha.failed')}
        </Text>
      ) : loaded ? (
        // The key remounts the widget on a reset: a fresh, unchecked box.
        <div key={resetKey}>
          <altcha-widget
            ref={attach}
            challenge={CAPTCHA_CHALLENGE_URL}
            configuration={JSON.stringify(WIDGET_OPTIONS)}
            language="en"
            style={{
              '--altcha-max-width': '100%',
              '--altcha-border-radius': 'var(--mantine-radius-sm)',
              '--altcha-border-color': 'var(--mantine-color-default-border)',
              '--altcha-color-base': 'var(--mantine-color-body)',
              '--altcha-color-base-content': 'var(--mantine-color-text)',
              '--altcha-color-primary': 'var(--mantine-primary-color-filled)',
            }}
          />
        </div>
      ) : (
        <Loader size="sm" />
      )}
    </Input.Wrapper>
  );
}

/** Waits for a widget added outside React to mount (its methods exist from its `load` event on). */
function mounted(element: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    element.addEventListener('load', () => resolve(), { once: true });
    setTimeout(resolve, 10_000);
  });
}

/** Solves a fresh ALTCHA challenge with no one clicking: a hidden widget, removed when done. */
async function solveHidden(): Promise<string | undefined> {
  await loadAltcha();
  const element = document.createElement('altcha-widget');
  element.setAttribute('challenge', CAPTCHA_CHALLENGE_URL);
  element.setAttribute('display', 'invisible');
  element.setAttribute('configuration', JSON.stringify({ ...WIDGET_OPTIONS, minDuration: 0 }));
  element.hidden = true;
  const ready = mounted(element);
  document.body.append(element);
  try {
    await ready;
    if (typeof element.verify !== 'function') return undefined;
    const result = await element.verify();
    return result?.payload ?? undefined;
  } finally {
    element.remove();
  }
}

/**
 * A captcha answer for each call of a flow the user already passed the widget for (the login's second step
 * re-sends the login, and the server accepts each answer once): solved in the background, one kept ready.
 * Resolves to undefined when no ALTCHA is configured.
 */
export function useBackgroundCaptcha(): () => Promise<string | undefined> {
  const { data: config } = useCaptchaConfig();
  const enabled = config?.captcha_type === 'altcha';
  const ready = useRef<{ answer: Promise<string | undefined>; at: number } | null>(null);

  const prepare = useCallback(() => {
    const answer = solveHidden().catch(() => undefined);
    ready.current = { answer, at: Date.now() };
  }, []);

  useEffect(() => {
    if (enabled && !ready.current) prepare();
  }, [enabled, prepare]);

  return useCallback(async () => {
    if (!enabled) return undefined;
    // Challenges live 10 minutes on the server; an answer kept longer than half that is not trusted.
    const kept = ready.current && Date.now() - ready.current.at < 300_000 ? ready.current.answer : null;
    const answer = kept ?? solveHidden().catch(() => undefined);
    prepare();
    return answer;
  }, [enabled, prepare]);
}

/** True when a failed call was refused for its captcha (missing, wrong, expired or used). */
export function isCaptchaError(err: unknown): boolean {
  const codes = err instanceof ApiError ? err.errors : [];
  return codes.some((code) => code === ERRORS.captchaRequired || code === ERRORS.captchaInvalid);
}

/**
 * A form's captcha state: the answer, the client-side check ("Verify the captcha" when a captcha is shown
 * and not solved) and the reset after a failed call; `props` go to `<Captcha>`.
 */
export function useCaptchaField() {
  const { t } = useTranslation();
  const { data: config } = useCaptchaConfig();
  const [response, setResponse] = useState<string>();
  const [resetKey, setResetKey] = useState(0);
  const [missing, setMissing] = useState(false);
  const required = config !== undefined && config.captcha_type !== 'none';

  const onChange = useCallback((value: string | undefined) => {
    setResponse(value);
    if (value) setMissing(false);
  }, []);

  return {
    response,
    /** False, with "Verify the captcha" under the widget, when the captcha is shown but not solved. */
    check(): boolean {
      const ok = !required || Boolean(response);
      setMissing(!ok);
      return ok;
    },
    /**
     * Clears the widget after a failed call (the server spent the answer). Returns true when the failure was
     * the captcha's own; its message is then shown under the widget instead of a toast.
     */
    failed(err: unknown): boolean {
      setResponse(undefined);
      setResetKey((k) => k + 1);
      const own = isCaptchaError(err);
      setMissing(own);
      return own;
    },
    /** Clears the widget and its message (e.g. the login's second step was closed). */
    reset() {
      setResponse(undefined);
      setResetKey((k) => k + 1);
      setMissing(false);
    },
    props: { onChange, resetKey, error: missing ? t(ERRORS.captchaRequired) : undefined },
  };
}

/** A request body with `captcha_response` added (typed as the body: helpers that take fixed shapes pass it on). */
export function withCaptcha<T extends object>(body: T, response: string | undefined): T {
  return { ...body, captcha_response: response };
}
