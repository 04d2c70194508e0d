import { curlSubmissionSnippet, fetchFormSnippet, fetchSubmissionSnippet, htmlFormSnippet, kitFormSnippet, reactFormSnippet } from '@lfk/client';
import { useQuery } from '@tanstack/react-query';
import type { Form } from './form-values.ts';
import { CopyButton } from '../../components/copy-button.tsx';

function Snippet({ title, code }: { title: string; code: string }) {
  return (
    <figure className="snippet">
      <figcaption>
        <span>{title}</span> <CopyButton text={code} label={`Copy ${title}`} />
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/**
 * The browser kit's tag as this server names it (`GET /v1/kit`, with its integrity hash): undefined
 * while asked, null when the server has no build of the kit.
 */
function useKitScriptTag(): string | null | undefined {
  const kit = useQuery({
    queryKey: ['browser-kit'],
    queryFn: async () => {
      const res = await fetch('/v1/kit', { headers: { accept: 'application/json' } });
      return res.ok ? ((await res.json()) as { script_tag: string }).script_tag : null;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  return kit.isError ? null : kit.data;
}

/** How to send this form submissions: the HTML form for browsers, or the server-side call for `api_key` mode. */
export function EmbedSnippet({ form }: { form: Form }) {
  const origin = window.location.origin;
  const kitTag = useKitScriptTag();
  if (form.submission_mode === 'api_key') {
    return (
      <section className="embed" aria-labelledby="embed-title">
        <h2 id="embed-title">Send submissions from your server</h2>
        <p>
          This form takes submissions with an API key only. Set <code>LFK_API_KEY</code> to a key of this workspace on your server (owners create them on the
          API keys page).
        </p>
        <Snippet title="curl" code={curlSubmissionSnippet(form, origin)} />
        <Snippet title="fetch" code={fetchSubmissionSnippet(form, origin)} />
      </section>
    );
  }
  return (
    <section className="embed" aria-labelledby="embed-title">
      <h2 id="embed-title">Put the form on your site</h2>
      <p>
        Paste this HTML into a page served from one of the allowed origins
        {form.allowed_origins.length > 0 ? ` (${form.allowed_origins.join(', ')})` : ''}.
        {form.spam.captcha ? ' It loads the captcha’s script; nothing else.' : ' It needs no script.'}
      </p>
      {form.allowed_origins.length === 0 && (
        <p className="alert alert-warning">No origin is allowed yet, so no browser can submit: add your site's origin in the settings.</p>
      )}
      <Snippet title="HTML form" code={htmlFormSnippet(form, origin)} />
      {kitTag ? (
        <>
          <p>
            Or keep the person on your page: the same form with lfk’s script, pinned by its integrity hash. It sends the form without leaving the page, shows
            each problem beside its field and an upload’s progress, and says “Thank you” in place; without JavaScript the form still posts as above. A refused
            plain post shows lfk’s page, with a way back; set an error redirect URL to send people to a page of yours instead.
          </p>
          <Snippet title="Form that stays on the page" code={kitFormSnippet(form, origin, kitTag)} />
        </>
      ) : kitTag === null ? (
        <>
          <p>
            Or keep the person on your page: this version sends the form with a few lines of script, says “Thank you” in place, and shows each problem beside
            its field. A refused plain post shows lfk’s page, with a way back; set an error redirect URL to send people to a page of yours instead.
          </p>
          <Snippet title="Form with script" code={fetchFormSnippet(form, origin)} />
        </>
      ) : null}
      <p>
        In a React app, <code>@lfk/react</code> draws the same form from its description and sends it in place; read the description where the page is rendered
        and the first HTML is already a form that posts.
      </p>
      <Snippet title="React" code={reactFormSnippet(form, origin)} />
    </section>
  );
}
