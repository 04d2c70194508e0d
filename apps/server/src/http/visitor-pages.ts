import type { WireError } from '@lfk/api';

/**
 * What the person who filled in a form reads after an HTML form post. They cannot change the form
 * or its settings: they can change their answers, wait, go back, or tell the site's owner.
 */
export interface VisitorPage {
  title: string;
  paragraphs: string[];
  items?: string[];
  link?: { label: string; href: string };
}

/**
 * A way back to the site the form was sent from, when it is known: the page itself when the
 * browser named it (most send only the site's origin to another site), else the site's home.
 */
export const backLink = (backTo: string | null): Pick<VisitorPage, 'link'> =>
  backTo ? { link: { label: `Back to ${new URL(backTo).host}`, href: backTo } } : {};

/** The thank-you page, with a way back to the site the form was sent from when it is known. */
export function thankYouPage(backTo: string | null): VisitorPage {
  return { title: 'Thank you', paragraphs: ['Your answers were sent.'], ...backLink(backTo) };
}

const NOTHING_SENT = 'Your answers were not sent.';

/** Why the form was not sent, in words for the person who filled it in; fields named by their labels. */
const waitOf = (seconds: number | null) => (seconds === null ? 'a little while' : seconds === 1 ? '1 second' : `${seconds} seconds`);

export function notSentPage(error: WireError['body']['error'], status: number, labels: Record<string, string>, retryAfterSeconds: number | null): VisitorPage {
  switch (error.code) {
    case 'validation_failed':
    case 'invalid_submission':
      return {
        title: 'Please check your answers',
        paragraphs: ['Some answers need a change before the form can be sent:'],
        items: (error.details ?? []).map((d) => `${labels[d.path] ?? d.path}: ${d.message}`),
      };
    case 'file_too_large':
    case 'submission_too_large':
    case 'file_type_not_accepted':
      return {
        title: 'A file cannot be sent',
        paragraphs: [NOTHING_SENT, 'Go back, choose another file, and send the form again:'],
        items: (error.details ?? []).map((d) => `${labels[d.path] ?? d.path}: ${d.message}`),
      };
    case 'payload_too_large':
      return { title: 'Your answers are too long', paragraphs: [NOTHING_SENT, 'Go back, shorten them, and send the form again.'] };
    case 'rate_limited':
      return {
        title: 'Please wait a moment',
        paragraphs: [
          'Many answers were sent to this form from your network just now.',
          `${NOTHING_SENT} Wait ${waitOf(retryAfterSeconds)}, then send the form again.`,
        ],
      };
    case 'service_unavailable':
    case 'storage_unavailable':
    case 'scanner_unavailable':
    case 'unavailable':
      return {
        title: 'Please try again shortly',
        paragraphs: [
          `${NOTHING_SENT} The service that keeps this form’s answers is briefly unavailable.`,
          `Wait ${waitOf(retryAfterSeconds)}, then go back and send the form again.`,
        ],
      };
    case 'form_closed':
      // The message is the form's own `closed_message` when it has one.
      return { title: 'This form is closed', paragraphs: [error.message, NOTHING_SENT] };
    case 'captcha_failed':
      return {
        title: 'Please complete the check',
        paragraphs: [NOTHING_SENT, 'Go back, complete the check that shows you are not a robot, and send the form again.'],
      };
    case 'form_not_found':
      return { title: 'This form no longer exists', paragraphs: [NOTHING_SENT, 'Please contact the website’s owner another way.'] };
    case 'unsupported_media_type':
      return {
        title: 'This form cannot be sent this way',
        paragraphs: [
          `${NOTHING_SENT} The page sends its answers in a way the form does not take.`,
          'Please let the website’s owner know, or contact them another way.',
        ],
      };
    case 'origin_not_allowed':
    case 'api_key_required':
      return {
        title: 'This form cannot be sent from here',
        paragraphs: [
          `${NOTHING_SENT} The form does not take answers from the page you sent it from.`,
          'Please let the website’s owner know, or contact them another way.',
        ],
      };
    default:
      return status >= 500
        ? { title: 'Something went wrong', paragraphs: [`${NOTHING_SENT} Something went wrong on our side; please send the form again in a moment.`] }
        : { title: 'The form could not be sent', paragraphs: [NOTHING_SENT, 'Please go back and try again, or contact the website’s owner another way.'] };
  }
}
