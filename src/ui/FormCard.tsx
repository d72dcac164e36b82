/** The card of a form screen (sign-in, password reset, bank account, identity...): a section its heading labels. */
import { useId, type ReactNode } from 'react';
import './auth.css';

export function FormCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="card auth-card" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}
