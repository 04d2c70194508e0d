/**
 * The owner's React page of test/react.test.ts: rendered to HTML on the site's server
 * (react-dom/server), then hydrated in Chromium from browser.tsx's bundle.
 */
import { LfkField, LfkForm, type PublicForm } from '@lfk/react';
import { useEffect } from 'react';

export interface AppProps {
  baseUrl: string;
  formId: string;
  description: PublicForm | null;
}

export function App({ baseUrl, formId, description }: AppProps) {
  useEffect(() => {
    Object.assign(window, { hydrated: true });
  }, []);
  return (
    <main>
      <h1>Contact us</h1>
      <LfkForm formId={formId} baseUrl={baseUrl} description={description} success={<p>Got it: we answer within a day.</p>}>
        <LfkField name="email" />
        <LfkField name="phone" label="Your phone" />
        <LfkField name="attachment" />
        <button type="submit">Send</button>
      </LfkForm>
    </main>
  );
}
