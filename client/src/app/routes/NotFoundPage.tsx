import { PageMessage } from '../../components/PageMessage.tsx';

export default function NotFoundPage() {
  return (
    <PageMessage
      icon="cat"
      title="Page Not Found"
      message="There is nothing at this address."
      action={{ to: '/', label: 'Back to Home' }}
    />
  );
}
