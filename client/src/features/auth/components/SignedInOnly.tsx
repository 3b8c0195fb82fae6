import type { ReactNode } from 'react';
import { useSession } from '../stores/session.ts';
import type { IconName } from '../../../components/Icon.tsx';
import { PageMessage } from '../../../components/PageMessage.tsx';

type SignedInOnlyProps = { icon: IconName; title: string; message: string; children: ReactNode };

/** A screen for signed-in people: someone signed out sees its title, what it is for and the login. */
export function SignedInOnly({ icon, title, message, children }: SignedInOnlyProps) {
  const user = useSession((s) => s.user);
  if (user) return <>{children}</>;
  return (
    <div className="page">
      <PageMessage icon={icon} title={title} message={message} action={{ to: '/login', label: 'Login' }} />
    </div>
  );
}
