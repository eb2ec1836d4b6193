// SEO (area `seo`, one story): the merchant sets its profile and a banned word on /keysword_setting,
// searches a seed word on /key_search (the sandbox's Douyin suggestions) and collects a long-tail word,
// finds it on /keywords_num, makes titles from keywords on /keywords-new_title (none over 50 characters,
// none with the banned word) and saves two to the library, follows a competitor on /account_see whose
// figures are the sandbox's own, and checks the pages in English (the zh-only routes say so).
import { join } from 'node:path';
import { artifacts, DEMO, dialogReady, expect, pageToken, setLanguage, signIn, story, sandboxFetch } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('seo', () => page);
const s = { stamp: Date.now().toString(36), collected: '', titles: [] };

async function inputIn(testId) {
  const el = page.getByTestId(testId);
  return (await el.evaluate((e) => e.tagName)) === 'INPUT' || (await el.evaluate((e) => e.tagName)) === 'TEXTAREA' ? el : el.locator('input, textarea').first();
}

await step('/keysword_setting: demo saves its brand and product and bans a word', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  s.token = await pageToken(page);
  await page.goto('/keysword_setting');
  await page.getByTestId('lexicon-page').waitFor();
  await (await inputIn('profile-brand')).fill('老城火锅');
  await (await inputIn('profile-product')).fill('牛油火锅');
  await (await inputIn('profile-description')).fill('招牌牛油锅底配鲜毛肚，双人团购套餐，周末聚餐不用排队。');
  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/screen.merchant_seo_lexicon/edit')),
    page.getByTestId('profile-save').click(),
  ]);
  expect((await saved.json()).code === 200, 'profile saved');
  await page.getByTestId('lex-tab-banned').click();
  await page.getByTestId('lex-add-banned').click();
  await dialogReady(page, 'lex-words-banned-wrap');
  await page.getByTestId('lex-words-banned-text').fill('排队\n\n排队');
  await page.getByTestId('lex-words-banned-count').getByText('1').first().waitFor();
  await page.getByTestId('lex-words-banned-ok').click();
  await page.locator('[data-testid^="lex-word-"]', { hasText: '排队' }).first().waitFor();
  await page.screenshot({ path: join(artifacts, 'seo-lexicon-zh-CN.png'), fullPage: true });
});

await step('/key_search: related words of 火锅 with heat and trend; collect a long-tail word', async () => {
  await page.goto('/key_search');
  await page.getByTestId('key-search-page').waitFor();
  const input = await inputIn('search-input');
  await input.fill('火锅');
  const [answer] = await Promise.all([page.waitForResponse((r) => r.url().includes('/seo.merchant_keywords/search')), input.press('Enter')]);
  const rows = (await answer.json()).data.rows;
  const tail = rows.find((w) => w.kind === 'long_tail');
  expect(tail, `a long-tail word in ${JSON.stringify(rows).slice(0, 300)}`);
  s.collected = tail.word;
  await page.getByTestId(`search-row-${tail.word}`).waitFor();
  await page.getByTestId(`search-trend-${tail.word}`).locator('polyline').waitFor();
  await page.getByTestId(`search-collect-${tail.word}`).click();
  await page.getByTestId(`search-collected-${tail.word}`).waitFor();
  await page.screenshot({ path: join(artifacts, 'seo-search-zh-CN.png'), fullPage: true });
});

await step('/keywords_num: the collected word is listed', async () => {
  await page.goto('/keywords_num');
  await page.locator('[data-testid^="collected-word-"]', { hasText: s.collected }).first().waitFor();
});

await step('/keywords-new_title: titles from keywords, within 50 characters and without the banned word; two saved', async () => {
  await page.goto(`/keywords-new_title?kw=${encodeURIComponent('鲜毛肚')}`);
  await page.getByTestId('new-title-page').waitFor();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/screen.merchant_seo_lexicon/ai_title')),
    page.getByTestId('gen-submit').click(),
  ]);
  const body = await answer.json();
  expect(body.code === 200, `ai_title answered ${JSON.stringify(body).slice(0, 300)}`);
  const titles = body.data.rows.map((r) => r.title);
  expect(titles.length >= 10, `only ${titles.length} titles`);
  for (const t of titles) {
    expect([...t].length <= 50, `too long: ${t}`);
    expect(!t.includes('排队'), `banned word in ${t}`);
  }
  expect(titles.some((t) => t.includes('鲜毛肚') || t.includes('牛油火锅')), `no keyword in ${titles.slice(0, 5)}`);
  s.titles = titles.slice(0, 2);
  for (const t of s.titles) await page.getByTestId(`gen-row-${t}`).getByRole('checkbox').click();
  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/screen.merchant_seo_lexicon/ai_add')),
    page.getByTestId('gen-save').click(),
  ]);
  expect((await saved.json()).data.added === 2, 'two saved');
  await page.screenshot({ path: join(artifacts, 'seo-titles-zh-CN.png'), fullPage: true });
  await page.getByTestId('tab-library').click();
  await page.locator('[data-testid^="title-text-"]', { hasText: s.titles[0] }).first().waitFor();
});

await step('/account_see: a competitor followed by its share link shows the sandbox\'s figures', async () => {
  const rival = await (
    await sandboxFetch(`${base}/sandbox/_control/public_accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nickname: `对面火锅${s.stamp}`, posts_per_day: 4, start_ms: Date.now() - 3 * 86_400_000, topics: ['火锅', '毛肚'] }),
    })
  ).json();
  const truth = await (await sandboxFetch(`${base}/sandbox/_control/public_accounts/${rival.id}`)).json();
  await page.goto('/account_see');
  await page.getByTestId('account-see-page').waitFor();
  await page.getByTestId('bench-add').click();
  await dialogReady(page, 'bench-form-wrap');
  await (await inputIn('bench-form-link')).fill(`${rival.short_url} 复制此链接，打开抖音`);
  const [added] = await Promise.all([page.waitForResponse((r) => r.url().includes('/seo.benchmark/add')), page.getByTestId('bench-form-ok').click()]);
  const b = (await added.json()).data;
  // The sandbox's figures grow with its clock while the add runs: the stored count lies between the two reads.
  const after = await (await sandboxFetch(`${base}/sandbox/_control/public_accounts/${rival.id}`)).json();
  expect(b.works === truth.videos.length || b.works === after.videos.length, `works ${b.works} vs ${truth.videos.length}..${after.videos.length}`);
  const [low, high] = [truth.account.follower_count, after.account.follower_count];
  expect(b.followers >= low && b.followers <= high, `followers ${b.followers} outside the sandbox's ${low}..${high}`);
  await page.getByTestId(`bench-name-${b.id}`).getByText(`对面火锅${s.stamp}`).waitFor();
  await page.getByTestId(`bench-view-${b.id}`).click();
  await page.getByTestId('bench-figure-followers').getByText(b.followers.toLocaleString('en-US')).first().waitFor();
  await page.locator('[data-testid^="bench-words-"]').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'seo-benchmark-zh-CN.png'), fullPage: true });
  await page.keyboard.press('Escape');
});

await step('the SEO pages in English; a zh-only route says so', async () => {
  await setLanguage(page, 'en');
  await page.goto('/key_search');
  await page.getByTestId('page-title').getByText('Keyword search').waitFor();
  await page.goto('/keywords-new_title');
  await page.getByTestId('page-title').getByText('Titles from keywords').waitFor();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/screen.merchant_seo_lexicon/ai_title')),
    page.getByTestId('gen-submit').click(),
  ]);
  // The English console asks for English titles, made from the English words of the merchant's lexicon.
  expect(answer.request().postDataJSON().lang === 'en', `asked ${answer.request().postData()}`);
  const body = await answer.json();
  expect(body.code === 200 || body.data?.field === 'keywords', `english titles ${JSON.stringify(body).slice(0, 200)}`);
  await page.goto('/keywords_num');
  await page.getByTestId('route-lang').getByText('console only').waitFor();
  await page.screenshot({ path: join(artifacts, 'seo-en.png'), fullPage: true });
});

await finish();
