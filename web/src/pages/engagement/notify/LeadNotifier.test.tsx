import { render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { saveLogin } from '@/store/session';
import { eventStream } from '@/test/media';
import LeadNotifier from './LeadNotifier';

describe('LeadNotifier', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await import('../i18n');
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    saveLogin({
      token: 'jwt-staff',
      expires_at: Date.now() + 3_600_000,
      remember: false,
      user: { id: 5, username: 'amy', nickname: 'Amy', mobile: null, kind: 'staff', merchant_id: 1, merchant_name: 'Demo', role: [], permissions: ['msg/merchant_clue/index'], proxy_info: {}, home_type: 2, ai_token: '', vip: false, avatar: '' },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows each new lead of the event stream once as a notification', async () => {
    const s = eventStream();
    vi.stubGlobal('fetch', vi.fn(async () => s.response()));
    const view = render(
      <AntApp>
        <MemoryRouter>
          <LeadNotifier />
        </MemoryRouter>
      </AntApp>,
    );
    const lead = '{"id":3,"lead_id":9,"user_id":5,"name":"Fan 10","content":"call me 13912345678","platform":"dy","source":"message","wx_state":"off","wx_reason":"","created_at":0}';
    s.raw(`event: lead\ndata: [${lead}]\n\n`);
    expect(await screen.findByText('New lead: Fan 10')).toBeInTheDocument();
    expect(screen.getByTestId('lead-notice-9')).toHaveTextContent('Douyin · Private message：call me 13912345678');
    s.raw(`event: lead\ndata: [${lead}]\n\n`);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.getAllByText('New lead: Fan 10')).toHaveLength(1);
    view.unmount();
  });
});
