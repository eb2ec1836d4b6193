// MCP (issue 44): an MCP client session (the official TypeScript SDK) against the real server. With an
// API token made through the API, the client lists the tools over the Streamable HTTP transport, makes a
// quick-mix project of freshly uploaded clips and generates 3 variants, waits for their renders, writes
// titles, and publishes the variants on a sandbox Douyin account through a release task the operator
// approves; it reads the task's progress until every video is published. A read-only token is refused
// the release task; the stdio transport (`clipmatrix mcp`, spawned as a desktop client would) reads the
// same progress. No console page is needed but the platform's consent page.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ADMIN, apiAs, bin, colourClips, DEMO, expect, sandboxFetch, signIn, signInApi, story, uploadClip, waitReady } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('mcp', () => page);

const mc = { stamp: Date.now().toString(36), session: null, admin: null, token: null, readToken: null, groups: [], project: 0, variants: [], account: 0, task: 0, titles: [] };
const api = apiAs(base, () => mc.session);
const adminApi = apiAs(base, () => mc.admin);
const TOOLS = ['list_material_groups', 'list_materials', 'create_quick_mix_project', 'generate_variants', 'wait_for_renders', 'list_finished_videos', 'make_voice_over', 'list_voice_overs', 'write_titles', 'list_accounts', 'create_release_task', 'release_task_progress', 'list_comments', 'list_leads', 'report_overview'];

/** An MCP client on the HTTP endpoint with this bearer token. */
async function httpClient(token) {
  const client = new Client({ name: 'clipmatrix-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en' } },
  });
  await client.connect(transport);
  return client;
}

/** A tool's structured result; fails on a tool error with its message. */
async function tool(client, name, args = {}, timeout = 60_000) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout });
  expect(!r.isError, `${name} answered an error: ${r.content?.[0]?.text}`);
  expect(r.content?.[0]?.type === 'text', `${name}: no text content`);
  return r.structuredContent ?? JSON.parse(r.content[0].text);
}

let client;

await step('demo makes an API token through the API; an MCP client connects over HTTP and lists the tools', async () => {
  mc.session = await signInApi(base, DEMO);
  mc.admin = await signInApi(base, ADMIN);
  mc.token = (await api('/index/addApiToken', { method: 'POST', body: { name: `mcp-${mc.stamp}`, scopes: ['materials', 'clip', 'publish', 'reports'], expires_in_days: 7 } })).token;
  mc.readToken = (await api('/index/addApiToken', { method: 'POST', body: { name: `mcp-read-${mc.stamp}`, scopes: ['read'], expires_in_days: 7 } })).token;
  expect(mc.token?.startsWith('cmx_'), `token ${mc.token}`);
  client = await httpClient(mc.token);
  expect(client.getServerVersion()?.name === 'clipmatrix', `server ${JSON.stringify(client.getServerVersion())}`);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  expect(TOOLS.every((n) => names.includes(n)), `tools: ${names.join(', ')}`);
  for (const t of tools) expect(t.inputSchema?.type === 'object' && t.inputSchema.properties, `${t.name} has no object schema`);
  const task = tools.find((t) => t.name === 'create_release_task').inputSchema;
  expect(task.properties.video_ids && task.required.includes('account_ids'), `release task schema ${JSON.stringify(task).slice(0, 300)}`);
});

await step('three shot groups of tiny clips (uploaded through the API); the tools list them ready', async () => {
  const media = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-mcp-'));
  // Two, two and one clip: 4 unique variants possible, 3 asked for.
  const shots = [['red', 'orange'], ['green', 'teal'], ['blue']];
  colourClips(media, shots.flat());
  const clips = [];
  for (const [i, colours] of shots.entries()) {
    const group = await api('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `MCP镜头${i + 1}-${mc.stamp}` } });
    mc.groups.push(group.id);
    for (const c of colours) clips.push((await uploadClip(api, media, group.id, `${c}.mp4`, `${c}-${mc.stamp}`)).id);
  }
  await waitReady(api, clips);
  rmSync(media, { recursive: true, force: true });
  const groups = await tool(client, 'list_material_groups', { name: mc.stamp, limit: 50 });
  const ours = groups.rows.filter((g) => mc.groups.includes(g.id));
  expect(ours.length === 3 && ours.every((g) => g.ready === g.count && g.count > 0), `groups ${JSON.stringify(groups.rows)}`);
  const first = await tool(client, 'list_materials', { group_id: mc.groups[0] });
  expect(first.rows.length === 2 && first.rows.every((m) => m.state === 'ready'), `materials ${JSON.stringify(first.rows.map((m) => [m.id, m.state]))}`);
});

await step('a quick-mix project generates 3 variants; wait_for_renders sees them all succeed', async () => {
  const project = await tool(client, 'create_quick_mix_project', { name: `MCP混剪${mc.stamp}`, config: { groups: mc.groups.map((g) => ({ group_id: g })), output_count: 3 } });
  mc.project = project.id;
  expect(mc.project > 0 && project.capacity >= 3, `project ${JSON.stringify(project).slice(0, 300)}`);
  const made = await tool(client, 'generate_variants', { id: mc.project, count: 3 });
  mc.variants = made.variant_ids;
  expect(mc.variants?.length === 3, `generate answered ${JSON.stringify(made).slice(0, 300)}`);
  const deadline = Date.now() + 240_000;
  for (;;) {
    const w = await tool(client, 'wait_for_renders', { project_id: mc.project, variant_ids: mc.variants, timeout_seconds: 40 }, 90_000);
    if (w.done) {
      expect(w.counts.success === 3 && w.counts.failed === 0, `renders ${JSON.stringify(w.counts)}: ${JSON.stringify(w.variants.map((v) => v.error))}`);
      expect(w.variants.every((v) => v.src), 'a variant without its video link');
      break;
    }
    expect(Date.now() < deadline, `renders not done: ${JSON.stringify(w.counts)}`);
  }
  const library = await tool(client, 'list_finished_videos', { project_id: mc.project });
  expect(mc.variants.every((id) => library.rows.some((r) => r.id === id && r.state === 'success')), `library ${JSON.stringify(library.rows.map((r) => [r.id, r.state]))}`);
});

await step('write_titles writes titles for the release', async () => {
  const written = await tool(client, 'write_titles', { keywords: ['奶茶', '新品'], count: 3, max_chars: 30 });
  mc.titles = (written.rows ?? []).map((r) => r.title ?? r.text).filter(Boolean);
  expect(mc.titles.length > 0, `titles ${JSON.stringify(written).slice(0, 300)}`);
});

await step('demo authorizes a sandbox Douyin account; list_accounts shows it', async () => {
  page = await newPage(await newContext());
  await signIn(page, 'account', DEMO);
  await page.goto('/account_auth');
  await page.getByTestId('auth-dy').click();
  await page.waitForURL((url) => url.pathname.startsWith('/sandbox/dy/'), { timeout: 20_000 });
  await page.locator('#approve').waitFor();
  const [callback] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/dy/callback'), page.locator('#approve').click()]);
  mc.account = Number(new URL(callback.headers().location ?? '', base).searchParams.get('authorized'));
  expect(mc.account > 0, `callback went to ${callback.headers().location}`);
  await page.waitForURL((url) => url.pathname === '/account_auth');
  await page.context().close();
  page = undefined;
  const accounts = await tool(client, 'list_accounts', { platform: 'dy', limit: 50 });
  expect(accounts.rows.some((a) => a.id === mc.account), `accounts ${JSON.stringify(accounts.rows.map((a) => a.id))}`);
});

await step('a read-only token is refused the release task (isError, the API\'s message)', async () => {
  const reader = await httpClient(mc.readToken);
  const r = await reader.callTool({ name: 'create_release_task', arguments: { name: 'x', time_mode: 'random', start_date: '2030-01-01', daily_quantity: 1, days: 1, account_ids: [mc.account], video_ids: mc.variants } });
  expect(r.isError === true && /scopes \(read\)/.test(r.content[0].text), `a read token's release task: ${JSON.stringify(r).slice(0, 300)}`);
  // it still reads
  const progress = await reader.callTool({ name: 'list_finished_videos', arguments: { project_id: mc.project } });
  expect(!progress.isError, `a read token's list: ${JSON.stringify(progress).slice(0, 300)}`);
  await reader.close();
});

await step('create_release_task of the 3 variants; the operator approves; the sandbox clock runs it; release_task_progress reads all 3 published', async () => {
  const clock = await (await sandboxFetch(`${base}/sandbox/_control/clock`)).json();
  const tomorrow = new Date(clock.now + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
  const created = await tool(client, 'create_release_task', {
    name: `MCP发布${mc.stamp}`, titles: mc.titles.join('#'), topics: ['探店'], top_comments: '', at_users: [], mount_type: 'none',
    time_mode: 'random', start_date: tomorrow, daily_quantity: 3, days: 1, times: [], account_ids: [mc.account], video_ids: mc.variants,
  });
  mc.task = created.task?.id;
  expect(mc.task > 0, `create_release_task answered ${JSON.stringify(created).slice(0, 300)}`);
  const before = await tool(client, 'release_task_progress', { task_id: mc.task });
  expect(before.rows.length === 3, `items before review: ${JSON.stringify(before.rows.map((r) => r.state))}`);
  await adminApi('/system/audit/approve', { method: 'POST', body: { id: mc.task } });
  await sandboxFetch(`${base}/sandbox/_control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: 2 * 86_400_000 }) });
  const deadline = Date.now() + 120_000;
  for (;;) {
    const p = await tool(client, 'release_task_progress', { task_id: mc.task });
    expect(!p.rows.some((r) => r.state === 'failed'), `an item failed: ${JSON.stringify(p.rows.map((r) => r.error))}`);
    if (p.rows.length === 3 && p.rows.every((r) => ['published', 'released'].includes(r.state))) {
      expect(p.rows.every((r) => r.item_id && r.account.id === mc.account), `items ${JSON.stringify(p.rows).slice(0, 300)}`);
      mc.items = p.rows.map((r) => r.item_id);
      break;
    }
    expect(Date.now() < deadline, `items: ${JSON.stringify(p.rows.map((r) => r.state))}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const counts = await (await sandboxFetch(`${base}/sandbox/_control/counts`)).json();
  const ours = (counts.works ?? []).filter((w) => mc.items.includes(w.item_id));
  expect(ours.length === 3, `the sandbox's Douyin holds ${ours.length} of the task's works`);
  await client.close();
});

await step('the stdio transport: `clipmatrix mcp --url … --token …` spawned by the SDK reads the same progress and the report', async () => {
  const stdio = new Client({ name: 'clipmatrix-e2e-stdio', version: '1.0.0' });
  await stdio.connect(new StdioClientTransport({ command: bin, args: ['mcp', '--url', base, '--token', mc.token, '--lang', 'en'], stderr: 'ignore' }));
  const { tools } = await stdio.listTools();
  expect(tools.length === TOOLS.length, `stdio tools: ${tools.map((t) => t.name).join(', ')}`);
  const p = await tool(stdio, 'release_task_progress', { task_id: mc.task });
  expect(p.rows.length === 3 && p.rows.every((r) => ['published', 'released'].includes(r.state)), `stdio progress ${JSON.stringify(p.rows.map((r) => r.state))}`);
  const report = await tool(stdio, 'report_overview', { platform: 'dy', span: 'week' });
  expect(report.totals && typeof report.totals.posts === 'number', `report ${JSON.stringify(report).slice(0, 300)}`);
  await stdio.close();
});

await finish();
