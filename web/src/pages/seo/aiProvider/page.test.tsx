import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '../testing';
import AiProviderPage from '.';

let saved = false;
const ctx = setupSeoPage((path, body) => {
  if (path === '/system/ai_provider/index')
    return saved ? { configured: true, base_url: 'https://llm.example/v1', model: 'm1', api_key: 'sk-***89', timeout_s: 45, last_fallback: { at: 0, use_: 'topics', model: 'm1', code: 'timeout', reason: 'The AI service did not answer within 45 s' } } : { configured: false, base_url: '', model: '', api_key: '', timeout_s: 30 };
  if (path === '/system/ai_provider/save') {
    saved = true;
    return { configured: true, base_url: body.base_url, model: body.model, api_key: 'sk-***89', timeout_s: body.timeout_s };
  }
  return undefined;
});

describe('/system/ai_provider', { timeout: 60_000 }, () => {
  it('shows the built-in engine in use, refuses a bad URL before sending, saves a provider', async () => {
    saved = false;
    renderAt(<AiProviderPage />, '/system/ai_provider');
    expect(await screen.findByTestId('provider-state')).toHaveTextContent('Built-in title engine');
    fireEvent.change(inputOf('provider-base-url'), { target: { value: 'ftp://x' } });
    fireEvent.change(inputOf('provider-model'), { target: { value: 'm1' } });
    fireEvent.change(inputOf('provider-api-key'), { target: { value: 'sk-123489' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    expect(await screen.findByText('The base URL must start with http:// or https://')).toBeInTheDocument();
    expect(bodiesOf(ctx.calls, '/system/ai_provider/save')).toEqual([]);
    fireEvent.change(inputOf('provider-base-url'), { target: { value: ' https://llm.example/v1 ' } });
    expect(inputOf('provider-timeout')).toHaveValue('30');
    fireEvent.change(inputOf('provider-timeout'), { target: { value: '45' } });
    fireEvent.click(screen.getByTestId('provider-save'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/system/ai_provider/save')).toEqual([{ base_url: 'https://llm.example/v1', model: 'm1', api_key: 'sk-123489', timeout_s: 45 }]));
    await waitFor(() => expect(screen.getByTestId('provider-state')).toHaveTextContent('External AI service'));
    expect(inputOf('provider-api-key')).toHaveValue('');
  });

  it('shows the operator the provider\'s last failure', async () => {
    saved = true;
    renderAt(<AiProviderPage />, '/system/ai_provider');
    expect(await screen.findByTestId('provider-last-failure')).toHaveTextContent('(topics)');
    expect(screen.getByTestId('provider-last-failure')).toHaveTextContent('did not answer within 45 s');
    // the form takes the saved values in an effect after the render that shows the failure
    await waitFor(() => expect(inputOf('provider-timeout')).toHaveValue('45'));
  });
});
