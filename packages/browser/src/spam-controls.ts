/**
 * The form's spam controls, from its public description: the honeypot field added when the page
 * lacks it, and the captcha widget of the form's provider (whose script is loaded only then). The
 * server judges both as it judges a plain post: the kit makes nothing weaker.
 */
import type { CaptchaProvider, PublicForm } from './wire.ts';

/** Each provider's widget class (its script renders every element with it), script, and global. */
export const PROVIDERS: Record<CaptchaProvider, [string, string, string]> = {
  turnstile: ['cf-turnstile', 'https://challenges.cloudflare.com/turnstile/v0/api.js', 'turnstile'],
  hcaptcha: ['h-captcha', 'https://js.hcaptcha.com/1/api.js', 'hcaptcha'],
  recaptcha: ['g-recaptcha', 'https://www.google.com/recaptcha/api.js', 'grecaptcha'],
};

interface CaptchaGlobal {
  render?(element: HTMLElement, options: { sitekey: string }): unknown;
  reset?(): void;
}

const captchaGlobal = (provider: CaptchaProvider) => (window as unknown as Record<string, CaptchaGlobal | undefined>)[PROVIDERS[provider][2]];

/** The form's submit buttons (what a double click presses). */
export const submitButtons = (form: HTMLFormElement) =>
  [...form.querySelectorAll<HTMLButtonElement | HTMLInputElement>('button,input[type=submit],input[type=image]')].filter(
    (b) => b.type === 'submit' || b.type === 'image',
  );

/** A honeypot: out of sight and out of the tab order, never filled by the browser, hidden from assistive technology. */
function addHoneypot(form: HTMLFormElement, name: string): void {
  if (form.elements.namedItem(name)) return;
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden';
  const label = document.createElement('label');
  label.textContent = 'Leave this empty';
  const input = document.createElement('input');
  Object.assign(input, { type: 'text', name, tabIndex: -1, autocomplete: 'off' });
  label.append(input);
  box.append(label);
  form.prepend(box);
}

function addCaptcha(form: HTMLFormElement, provider: CaptchaProvider, siteKey: string): void {
  const className = PROVIDERS[provider][0];
  if (!form.querySelector(`.${className}`)) {
    const widget = document.createElement('div');
    widget.className = className;
    widget.setAttribute('data-sitekey', siteKey);
    const place = form.querySelector('[data-lfk-captcha]');
    if (place) place.append(widget);
    else {
      const button = submitButtons(form)[0];
      if (button) button.before(widget);
      else form.append(widget);
    }
    // A provider already loaded renders what it found at its load; a widget added later is rendered here.
    captchaGlobal(provider)?.render?.(widget, { sitekey: siteKey });
  }
  loadCaptchaScript(provider);
}

/** The provider's script, added to the page once: it renders every widget of its class. */
export function loadCaptchaScript(provider: CaptchaProvider): void {
  const src = PROVIDERS[provider][1];
  if (document.querySelector(`script[src^="${src}"]`)) return;
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  document.head.append(script);
}

/** Puts the form's honeypot and captcha on the page, as its description names them. */
export function addSpamControls(form: HTMLFormElement, description: PublicForm): void {
  if (description.honeypot_field) addHoneypot(form, description.honeypot_field);
  if (description.captcha) addCaptcha(form, description.captcha.provider, description.captcha.site_key);
}

/** A captcha's answer is good once: after a refused submission the visitor solves it again. */
export function resetCaptcha(description: PublicForm | null): void {
  if (description?.captcha) captchaGlobal(description.captcha.provider)?.reset?.();
}
