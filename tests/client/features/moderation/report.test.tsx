// The Report button and dialog against a scripted server: who gets the button, the reason and
// comment sent, and what each answer (201, 409, 400, a network failure) tells the person.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../../client/src/components/Toaster.tsx';
import { useSession } from '../../../../client/src/features/auth/stores/session.ts';
import { ReportButton } from '../../../../client/src/features/moderation/components/ReportButton.tsx';
import { scriptedFetch, type Reply } from '../../helpers.ts';
import { QueryProvider } from '../../query.tsx';

const alice = { id: 7, username: 'alice' };

function renderButton(ownerId: number | null = 3) {
  render(
    <QueryProvider>
      <ReportButton type="review" id={31} ownerId={ownerId} label="review by bob" />
      <Toaster />
    </QueryProvider>,
  );
}

function openDialog() {
  fireEvent.click(screen.getByRole('button', { name: 'Report review by bob' }));
  return screen.getByRole('dialog', { hidden: true });
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit', hidden: true }));
const choose = (label: string) => fireEvent.click(screen.getByLabelText(label));

beforeEach(() => useSession.setState({ user: alice, token: 't', loading: false }));
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

describe('the Report button', () => {
  it('is not offered on your own content', () => {
    renderButton(alice.id);
    expect(screen.queryByRole('button', { name: /Report/ })).toBeNull();
  });

  it('asks a signed-out visitor to log in instead of opening the dialog', async () => {
    useSession.setState({ user: null, token: null });
    renderButton();
    fireEvent.click(screen.getByRole('button', { name: 'Report review by bob' }));
    await screen.findByText('Please log in to report this review');
    expect(screen.queryByRole('dialog', { hidden: true })).toBeNull();
  });
});

describe('the report dialog', () => {
  it('needs a reason, counts the comment, sends both, and thanks the reporter', async () => {
    const { sent } = scriptedFetch(() => ({
      status: 201,
      body: {
        report: { id: 1, target_type: 'review', target_id: 31, reason: 'wrong_info', created_at: 'x' },
      },
    }));
    renderButton();
    openDialog();
    for (const label of ['Spam', 'Offensive', 'Wrong info', 'Not a cat', 'Other']) {
      expect(screen.getByLabelText(label)).toBeTruthy();
    }
    submit();
    expect(await screen.findByText('Choose a reason.')).toBeTruthy();
    expect(sent).toHaveLength(0);

    choose('Wrong info');
    const comment = screen.getByLabelText('Comment (optional)') as HTMLTextAreaElement;
    // Characters as a person counts them: an emoji is one (and two UTF-16 units).
    fireEvent.change(comment, { target: { value: '😺'.repeat(501) } });
    expect(comment.value).toBe('😺'.repeat(500));
    expect(screen.getByText('500/500')).toBeTruthy();
    fireEvent.change(comment, { target: { value: '  Not this cat at all  ' } });
    expect(screen.getByText('23/500')).toBeTruthy();
    submit();
    expect(await screen.findByText('Thanks — a moderator will take a look.')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: 'POST',
      body: { target_type: 'review', target_id: 31, reason: 'wrong_info', comment: 'Not this cat at all' },
    });
  });

  it.each<[string, Reply, string]>([
    [
      '409',
      { status: 409, body: { error: 'You have already reported this review', code: 'already_reported' } },
      'You already reported this.',
    ],
    [
      '400 (own content)',
      { status: 400, body: { error: 'You cannot report your own review', code: 'invalid_input' } },
      'You cannot report your own review',
    ],
    ['a network failure', 'network-error', 'Backend not available'],
  ])('says why on %s, and leaves the form to try again', async (_, reply, message) => {
    scriptedFetch(() => reply);
    renderButton();
    openDialog();
    choose('Spam');
    submit();
    const alert = await screen.findByRole('alert', { hidden: true });
    expect(alert.textContent).toContain(message);
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Submit', hidden: true }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
  });

  it('sends no comment key for a blank comment', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: { report: {} } }));
    renderButton();
    openDialog();
    choose('Other');
    fireEvent.change(screen.getByLabelText('Comment (optional)'), { target: { value: '   ' } });
    submit();
    await screen.findByText('Thanks — a moderator will take a look.');
    expect(sent[0]?.body).toEqual({ target_type: 'review', target_id: 31, reason: 'other' });
  });
});
