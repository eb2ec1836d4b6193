// Auth and system (SPEC §5, §7): sign-in, staff and their menu grants (server-side 403), the language
// switch, the operator's /system pages.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ADMIN, artifacts, DEMO, expect, pageToken, SANDBOX_TOKEN, sandboxFetch, setLanguage, settled, sideMenuIds, signIn, signOut, story } from './lib.mjs';

const STAFF = { username: `clerk${Date.now().toString(36)}`, nickname: 'Clerk E2E', password: 'Clerk12345' };

let page;
const { base, browser, step, newContext, newPage, consoleErrors, finish } = await story('auth', () => page);

await step('a page opens in Chromium', async () => {
  const context = await newContext();
  page = await newPage(context);
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
});

await step('Swagger UI is served offline', async () => {
  for (const path of ['/api/docs', '/swagger/swagger-ui-bundle.js', '/swagger/swagger-ui.css']) {
    const res = await fetch(base + path);
    expect(res.ok, `${path} answered ${res.status}`);
  }
});

await step('login page (zh-CN) has the three tabs and the agreement', async () => {
  await page.goto('/login');
  for (const tab of ['account', 'mobile', 'staff']) await page.getByTestId(`login-tab-${tab}`).waitFor();
  await page.getByText('24小时内自动登录').waitFor();
  await page.getByTestId('login-username').fill('demo');
  await page.getByTestId('login-password').fill('whatever1');
  await page.getByTestId('login-submit').click();
  await page.getByText('请阅读并同意服务协议和隐私政策').first().waitFor();
  await page.getByTestId('login-username').fill('');
  await page.getByTestId('login-password').fill('');
  await page.goto('/login');
  await page.getByTestId('login-card').waitFor();
  await page.screenshot({ path: join(artifacts, 'login-zh-CN.png'), fullPage: true });
});

await step('demo signs in and lands on the dashboard', async () => {
  await signIn(page, 'account', DEMO);
  await page.waitForURL('**/dashboard');
  await page.getByTestId('dashboard-points').waitFor();
  await page.getByTestId('menu-dashboard').waitFor();
  await page.getByText('剩余点数').waitFor();
  await settled(page);
  await page.screenshot({ path: join(artifacts, 'dashboard-zh-CN.png'), fullPage: true });
});

await step('demo creates a staff member granted only the /log menu', async () => {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-staff').click();
  await page.waitForURL('**/staffAccount');
  await page.getByTestId('staff-add').click();
  await page.getByTestId('staff-username').fill(STAFF.username);
  await page.getByTestId('staff-nickname').fill(STAFF.nickname);
  await page.getByTestId('staff-password').fill(STAFF.password);
  const added = page.waitForResponse((r) => r.url().includes('/api/user.merchant_user_sub/add'));
  await page.getByTestId('staff-modal-ok').click();
  const addRes = await added;
  expect(addRes.status() === 200, `add staff answered ${addRes.status()}`);
  // the menu authorization dialog opens for the new member
  await page.getByTestId('auth-menu-log').click();
  const saved = page.waitForResponse((r) => r.url().includes('/api/user.merchant_user_sub/authMenu') && r.request().method() === 'POST');
  await page.getByTestId('auth-menu-save').click();
  const saveRes = await saved;
  const body = await saveRes.json();
  expect(saveRes.status() === 200 && body.code === 200, `authMenu answered ${saveRes.status()} ${JSON.stringify(body)}`);
  expect(Array.isArray(body.data?.checked) && body.data.checked.length === 1, `expected one granted menu, got ${JSON.stringify(body.data)}`);
  await page.getByText(STAFF.username).first().waitFor();
});

await step('demo signs out', () => signOut(page));

await step('staff signs in on the staff tab and sees only the /log menu', async () => {
  await signIn(page, 'staff', STAFF);
  await page.waitForURL('**/log');
  await page.getByTestId('menu-log').waitFor();
  const ids = await sideMenuIds(page);
  expect(JSON.stringify(ids) === JSON.stringify(['menu-log']), `side menu shows ${JSON.stringify(ids)}`);
});

await step('staff opening /staffAccount directly gets the 403 page, and the server refuses in words', async () => {
  await page.goto('/staffAccount');
  await page.getByTestId('route-forbidden').getByText('抱歉，您没有访问此页面的权限', { exact: false }).waitFor();
  expect((await page.getByTestId('staff-add').count()) === 0, 'the staff page is shown to a staff member without the menu');
  const res = await fetch(`${base}/api/user.merchant_user_sub/list`, { headers: { Authorization: `Bearer ${await pageToken(page)}`, 'accept-language': 'zh-CN' } });
  const body = await res.json();
  expect(res.status === 403 && body.message.includes('员工账号') && !body.message.includes('/'), `list answered ${res.status} ${body.message}`);
});

await step('staff switches the console to English', async () => {
  await page.getByTestId('menu-log').click();
  await page.waitForURL('**/log');
  await setLanguage(page, 'en');
  await page.getByTestId('menu-log').getByText('Operation log').waitFor();
  await page.getByTestId('page-title').getByText('Operation log').waitFor();
  await page.getByTestId('log-total').getByText(/^Total \d+$/).waitFor();
  await page.screenshot({ path: join(artifacts, 'staff-log-en.png'), fullPage: true });
});

await step('login page in English', async () => {
  await signOut(page);
  await page.getByTestId('login-tab-account').getByText('Enterprise account').waitFor();
  await page.getByText('Stay signed in for 24 hours').waitFor();
  await page.screenshot({ path: join(artifacts, 'login-en.png'), fullPage: true });
});

await step('dashboard in English', async () => {
  await signIn(page, 'account', DEMO);
  await page.waitForURL('**/dashboard');
  await page.getByText('Points remaining').waitFor();
  await settled(page);
  await page.screenshot({ path: join(artifacts, 'dashboard-en.png'), fullPage: true });
});

await step('operator opens every /system page without an error', async () => {
  await signOut(page);
  await signIn(page, 'account', ADMIN);
  for (const path of ['/system/merchant', '/system/role', '/system/menu', '/system/log', '/system/tasks', '/system/music']) {
    const item = page.getByTestId(`menu-${path.slice(1).replace('/', '-')}`);
    // The operator's menu has other groups (e.g. SEO's built-in keywords): open the System group itself.
    if (!(await item.isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title', { hasText: /^(System|系统)/ }).first().click();
    await item.click();
    await page.waitForURL(`**${path}`);
    await settled(page);
    const errors = await page.locator('.ant-message-error').allTextContents();
    expect(errors.length === 0, `${path}: error toast ${JSON.stringify(errors)}`);
    const empty = await page.locator('[data-testid$="-empty"]').allTextContents();
    const bad = empty.filter((text) => text !== 'no data');
    expect(bad.length === 0, `${path}: table says ${JSON.stringify(bad)}`);
  }
  await page.screenshot({ path: join(artifacts, 'operator-tasks-en.png'), fullPage: true });
});

await step('operator sets up Aliyun SMS (the sandbox gateway), a new merchant registers with the code it sent', async () => {
  await page.goto('/system/sms');
  await page.getByTestId('sms-log-warning').waitFor();
  await page.getByTestId('sms-provider').getByText(/Aliyun SMS|阿里云短信/).click();
  // The sandbox gateway's key pair: its secret derives from the sandbox token (platforms::sandbox::sms_secret).
  const secret = `sbx_sms_${createHash('sha256').update(`clipmatrix-sandbox-app:sms:${SANDBOX_TOKEN}`).digest('hex').slice(0, 32)}`;
  await page.getByTestId('sms-base-url').fill(`${base}/sandbox/sms/aliyun`);
  await page.getByTestId('sms-key-id').fill('sbx_sms_key');
  await page.getByTestId('sms-secret').fill(secret);
  await page.getByTestId('sms-sign-name').fill('剪辑矩阵');
  await page.getByTestId('sms-template_login').fill('SMS_100001');
  await page.getByTestId('sms-template_register').fill('SMS_100002');
  await page.getByTestId('sms-template_reset').fill('SMS_100003');
  await page.getByTestId('sms-save').click();
  await page.getByTestId('sms-provider-state').filter({ hasText: /Aliyun|阿里云/ }).waitFor();
  await page.getByTestId('sms-test-mobile').fill('13900139000');
  await page.getByTestId('sms-test').click();
  await page.getByTestId('sms-test-result').filter({ hasText: /message id|消息编号/ }).waitFor();

  await signOut(page);
  const mobile = '13900139001';
  const name = `smsshop${Date.now().toString(36)}`;
  await page.goto('/user_register');
  await page.getByTestId('register-merchant').fill('SMS Tea House');
  await page.getByTestId('register-username').fill(name);
  await page.getByTestId('register-mobile').fill(mobile);
  await page.getByTestId('register-send-code').click();
  // The code as the gateway received it (its outbox), like a phone would show it.
  let code = '';
  for (let i = 0; i < 50 && !code; i += 1) {
    const sent = await (await sandboxFetch(`${base}/sandbox/_control/sms`)).json();
    code = sent.sent.find((m) => m.mobile === mobile && m.provider === 'aliyun')?.code ?? '';
    if (!code) await new Promise((r) => setTimeout(r, 200));
  }
  expect(/^\d{6}$/.test(code), `no code reached the gateway: ${code}`);
  await page.getByTestId('register-code').fill(code);
  await page.getByTestId('register-password').fill('Tea12345');
  await page.getByTestId('register-password-confirm').fill('Tea12345');
  await page.getByTestId('register-agree').check();
  const done = page.waitForResponse((r) => r.url().includes('/api/login/register'));
  await page.getByTestId('register-submit').click();
  const res = await (await done).json();
  expect(res.code === 200, `register answered ${JSON.stringify(res)}`);
});

await finish();
