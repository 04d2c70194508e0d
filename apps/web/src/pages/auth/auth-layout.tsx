import type { ReactNode } from 'react';
import { usePageTitle } from '../../layout/page-title.ts';

/** The frame of the signed-out pages: the product's name, one task, one way to the other page. */
export function AuthLayout({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  usePageTitle(title);
  return (
    <main id="main" className="auth">
      <p className="brand">lfk</p>
      <h1>{title}</h1>
      {children}
      <p className="auth-footer">{footer}</p>
    </main>
  );
}
