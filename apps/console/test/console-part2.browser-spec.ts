import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { type AxeViolation, launch, endsCleanly, newPage, SCREENSHOTS, snapshot, watch } from './support/browser';
import { type Account, account, call, ROOT, type Service, startService } from './support/service';

/*
 * The console's part 2 in Chromium against the built service (one service and one browser for the
 * file): camera traps (upload with progress, a refused file, thumbnails appearing live, filters,
 * a photo with its boxes, keyboard steps, delete), fences (drawn and reshaped on the map, the
 * devices inside), tokens (the value shown once), the account (its sessions, signed out one by one
 * or all but this one; password, deletion), a camera trap's Photos tab, and the
 * administration page, which only an administrator sees. Another account sees none of it. Each
 * page is screenshotted into tmp/console-screenshots and scanned with axe-core; no page may log a
 * script error or a CSP violation.
 */

const CAMERA = '70B3D57ED0CA3E01';
const PHOTOS = join(ROOT, 'test-data/camera-traps/photos');
const MEGADETECTOR = join(ROOT, 'test-data/camera-traps/megadetector');
const ADMIN = { username: 'console_admin', password: 'console-admin-password-0123' };
const ROE = { id: 'r1', class: 'mammalia', order: 'artiodactyla', family: 'cervidae', genus: 'capreolus', species: 'capreolus' };

describe('the web console, part 2, in Chromium', () => {
  let svc: Service;
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let page: Page;
  const problems: string[] = [];
  const scans: Record<string, AxeViolation[]> = {};
  const hashes: Record<string, string> = {};

  const check = async (name: string, on: Page = page) => {
    scans[name] = await snapshot(on, name);
    expect({ page: name, violations: scans[name] }).toEqual({ page: name, violations: [] });
  };
  const as = (who: Account | string) => ({ Authorization: `Bearer ${typeof who === 'string' ? who : who.token}` });
  const signedIn = async (who: { username: string; password: string }, path = '/console/') => {
    const p = await newPage(browser);
    problems.push(...watch(p));
    await p.goto(`${svc.url}${path}`);
    await p.getByLabel('Username or e-mail').fill(who.username);
    await p.getByLabel('Password').fill(who.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.locator('[data-live="live"]').waitFor();
    return p;
  };
  const gallery = async (who: Account) =>
    (await call<{ hash: string; filename: string; status: number }[]>(svc.url, 'GET', '/user/image', { headers: as(who), expect: 200 })).data;

  beforeAll(async () => {
    svc = await startService({
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    });
    [alice, bob] = await Promise.all([account(svc.url, 'alice2'), account(svc.url, 'bob2')]);
    // A camera trap by its device type (2, Camera): the upload offers camera traps only.
    await call(svc.url, 'POST', `/user/device/${CAMERA}`, { body: { label: 'Trail camera', type_ref: 2 }, headers: as(alice), expect: 201 });
    browser = await launch();
    page = await signedIn(alice, '/console/camera-traps');
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));

  it('uploads photos by drag and drop and the file picker, each with its progress, refuses a text file saying why, and shows the thumbnails as the worker makes them', async () => {
    await page.getByRole('heading', { name: 'Camera traps' }).waitFor();
    await page.getByText('No photos yet').waitFor();
    await page.getByLabel('To camera').selectOption(CAMERA);
    // Dropped: a DataTransfer with a real photo, as a browser hands a drop to the page.
    const ocelot = readFileSync(join(PHOTOS, 'ocelot.jpg')).toString('base64');
    await page.evaluate(async (b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'ocelot.jpg', { type: 'image/jpeg' }));
      document.querySelector('[data-testid="dropzone"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, ocelot);
    // Chosen: two more photos and a text file, in one go.
    const fox = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 120, g: 90, b: 40 } } })
      .jpeg()
      .toBuffer();
    await page.locator('input[type="file"]').setInputFiles([
      { name: 'african_elephants.jpg', mimeType: 'image/jpeg', buffer: readFileSync(join(PHOTOS, 'african_elephants.jpg')) },
      { name: 'deer.jpg', mimeType: 'image/jpeg', buffer: fox },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') },
    ]);
    await page.getByRole('alert').filter({ hasText: 'Only JPEG and PNG photos are taken, not text/plain.' }).waitFor();
    await page.locator('[data-upload-state="done"]').nth(2).waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-upload-state="refused"]').count()).toBe(1);
    for (const bar of await page.locator('.uploads li[data-upload-state="done"] progress').all()) expect(await bar.getAttribute('value')).toBe('100');
    // No reload: the thumbnails come with the live feed's image events as the worker makes them.
    await page.locator('.gallery .thumb img').nth(2).waitFor({ timeout: 30_000 });
    // An <img> is in the page before its bytes are: wait until each has loaded, then every one is 320 wide.
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.gallery .thumb img')].every((i) => i.complete), undefined, {
      timeout: 15_000,
    });
    const thumbs = await page.locator('.gallery .thumb img').evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((i) => i.naturalWidth));
    expect(thumbs.length).toBeGreaterThanOrEqual(3);
    expect(thumbs.every((w) => w === 320)).toBe(true);
    for (const image of await gallery(alice)) hashes[image.filename] = image.hash;
    expect(Object.keys(hashes).sort()).toEqual(['african_elephants.jpg', 'deer.jpg', 'ocelot.jpg']);
    // The same photo again is said to be there already, not an error.
    await page.locator('input[type="file"]').setInputFiles([{ name: 'deer.jpg', mimeType: 'image/jpeg', buffer: fox }]);
    await page.locator('[data-upload-state="same"]').waitFor();
    await check('camera-traps');
  }, 120_000);

  it('shows annotations as they arrive, filters by label and score, and opens a photo with its boxes, stepping with the keyboard', async () => {
    await call(svc.url, 'POST', `/user/device/image/${CAMERA}/${hashes['deer.jpg']}/annotations`, {
      body: [
        { bbox: [0.1, 0.2, 0.3, 0.4], score: 0.92, label: 'roe deer', taxonomy: ROE },
        { bbox: [0.6, 0.5, 0.2, 0.2], score: 0.31, label: 'bird' },
      ],
      headers: as(alice),
      expect: 200,
    });
    await call(svc.url, 'POST', `/user/device/image/${CAMERA}/${hashes['african_elephants.jpg']}/annotations`, {
      body: { annotations: [], prediction: { label: 'african elephant', score: 0.88 } },
      headers: as(alice),
      expect: 200,
    });
    await page.locator(`.thumb[data-hash="${hashes['deer.jpg']}"]`, { hasText: 'roe deer 92 %' }).waitFor({ timeout: 15_000 });

    await page.getByLabel('Label').fill('deer');
    await page.getByLabel('Label').press('Enter');
    await page.waitForURL(/label=deer/);
    await page.locator('.gallery .thumb').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 1);
    await page.getByLabel('Score').selectOption('0.95');
    await page.getByText('No photo matches').waitFor();
    await page.getByLabel('Score').selectOption('0.9');
    await page.locator('.gallery .thumb').first().waitFor();
    await check('camera-traps-filtered');

    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 3);
    await page.locator(`.thumb[data-hash="${hashes['deer.jpg']}"] a`).click();
    await page.getByRole('heading', { name: 'deer.jpg' }).waitFor();
    await page.locator('.annotated-frame img').evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => (img.onload = r))));
    expect(await page.locator('.annotated .box').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('data-label')))).toEqual(['roe deer', 'bird']);
    await page.getByRole('list', { name: 'Detections' }).getByText('Capreolus capreolus (Cervidae)').waitFor();
    await check('camera-traps-photo');

    // → and ← walk the gallery's list, newest photo first: the deer (taken now), the elephants (2010), the ocelot (2006).
    expect(await page.getByRole('link', { name: 'Previous' }).count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL((url) => url.pathname.endsWith(hashes['african_elephants.jpg']));
    await page.getByRole('heading', { name: 'african_elephants.jpg' }).waitFor();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { name: 'ocelot.jpg' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('heading', { name: 'african_elephants.jpg' }).waitFor();
    // The image-level prediction, said apart from the boxes.
    await page.locator('[data-prediction="african elephant"]').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/camera-traps$/);
  });

  it('annotates a photo: a box drawn with the mouse and one added with the keyboard, labelled with suggestions, a whole-image label; saved, shown after a reload, found by the filter; a MegaDetector file imported', async () => {
    type Stored = { bbox: number[]; label: string; score: number; source: string | null; taxonomy: { genus: string } | null };
    const stored = async () => {
      const { meta } = (
        await call<{ meta: { annotations: string; prediction: Stored | null } }>(svc.url, 'GET', `/user/device/image/${CAMERA}/${hashes['ocelot.jpg']}`, {
          headers: as(alice),
          expect: 200,
        })
      ).data;
      return { boxes: JSON.parse(meta.annotations) as Stored[], prediction: meta.prediction };
    };
    await page.goto(`${svc.url}/console/camera-traps/${CAMERA}/${hashes['ocelot.jpg']}`);
    await page.getByRole('heading', { name: 'ocelot.jpg' }).waitFor();
    const photo = page.locator('.annotator-frame img');
    await photo.evaluate((img: HTMLImageElement) => (img.complete ? null : new Promise((r) => (img.onload = r))));
    await page.getByText('No boxes.').waitFor();

    // Drawn with the mouse, from 20 %/30 % to 50 %/70 % of the photo: its label field takes the keyboard.
    const at = (await photo.boundingBox())!;
    await page.mouse.move(at.x + at.width * 0.2, at.y + at.height * 0.3);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width * 0.5, at.y + at.height * 0.7, { steps: 6 });
    await page.mouse.up();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Label of box 1');
    // The account's labels are suggested (the deer's and the elephants', from the test before).
    expect(await page.locator('datalist option[value="roe deer"]').count()).toBe(1);
    await page.keyboard.type('ocelot');
    expect(await page.getByLabel('Score of box 1 (%)').inputValue()).toBe('100');

    // Added with the keyboard (N), nudged right twice and made taller, then labelled (Enter).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('n');
    await page.locator('.box.selected').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Label of box 2');
    await page.keyboard.type('bird');

    // The whole image: its label and a taxonomy level.
    await page.getByRole('button', { name: 'Set a whole-image label' }).click();
    await page.getByLabel('Whole-image label').fill('ocelot');
    await page.getByRole('group', { name: 'Taxonomy of the whole image' }).getByLabel('Genus').fill('leopardus');
    await page.getByText('Unsaved changes').waitFor();
    await check('camera-traps-annotate');
    await page.keyboard.press('Control+s');
    await page.locator('[data-annotation-state="saved"]', { hasText: 'Saved.' }).waitFor();

    const saved = await stored();
    expect(saved.boxes.map((b) => [b.label, b.score, b.source])).toEqual([
      ['ocelot', 1, 'person'],
      ['bird', 1, 'person'],
    ]);
    saved.boxes[0]!.bbox.forEach((v, i) => expect(Math.abs(v - [0.2, 0.3, 0.3, 0.4][i]!)).toBeLessThan(0.01));
    expect(saved.boxes[1]!.bbox.map((v) => Math.round(v * 1000) / 1000)).toEqual([0.353, 0.333, 0.333, 0.343]);
    expect(saved.prediction).toMatchObject({ label: 'ocelot', score: 1, source: 'person', taxonomy: { genus: 'leopardus' } });

    // As stored after a reload: each box a person's.
    await page.reload();
    await page.getByRole('heading', { name: 'ocelot.jpg' }).waitFor();
    expect(
      await page.locator('.annotator-frame .box').evaluateAll((boxes) => boxes.map((b) => [b.getAttribute('data-label'), b.getAttribute('data-source')])),
    ).toEqual([
      ['ocelot', 'person'],
      ['bird', 'person'],
    ]);
    await page.locator('[data-prediction="ocelot"]').waitFor();

    // The gallery's label filter finds the photo by its new label.
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/camera-traps$/);
    const filters = page.getByRole('search', { name: 'Filter the photos' });
    await filters.getByLabel('Label').fill('ocelot');
    await filters.getByLabel('Label').press('Enter');
    await page.waitForURL(/label=ocelot/);
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 1);
    await page.locator(`.thumb[data-hash="${hashes['ocelot.jpg']}"] a`).click();
    await page.getByRole('heading', { name: 'ocelot.jpg' }).waitFor();

    // A MegaDetector file without the photo: said, nothing sent.
    const detectorFile = page.getByLabel('Detector output file');
    await detectorFile.setInputFiles(join(MEGADETECTOR, 'output-format-example.json'));
    await page.getByRole('alert').filter({ hasText: 'No entry for ocelot.jpg in this file (it names 5 other photos).' }).waitFor();
    // One with it (the real detections of this photo): replacing a person's work asks first.
    await detectorFile.setInputFiles(join(MEGADETECTOR, 'speciesnet-notebook-detections.md-format.json'));
    await page.getByText('This replaces 3 annotations a person made on this photo.').waitFor();
    await page.getByRole('button', { name: 'Replace them' }).click();
    await page.getByText('Imported 1 box from MegaDetector.').waitFor();
    expect(
      await page
        .locator('.annotator-frame .box.by-detector')
        .evaluateAll((boxes) => boxes.map((b) => [b.getAttribute('data-label'), b.getAttribute('data-source')])),
    ).toEqual([['animal', 'MegaDetector (MDV5A (as run inside SpeciesNet))']]);
    expect((await stored()).boxes).toEqual([expect.objectContaining({ label: 'animal', source: 'MegaDetector (MDV5A (as run inside SpeciesNet))' })]);
    await check('camera-traps-imported');
    await page.goto(`${svc.url}/console/camera-traps`);
  });

  it('deletes a photo: gone from the gallery at once', async () => {
    await page.locator(`.thumb[data-hash="${hashes['ocelot.jpg']}"] a`).click();
    await page.getByRole('heading', { name: 'ocelot.jpg' }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Yes, go on' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith(hashes['ocelot.jpg']));
    await page.goto(`${svc.url}/console/camera-traps`);
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 2);
    expect((await gallery(alice)).map((i) => i.filename).sort()).toEqual(['african_elephants.jpg', 'deer.jpg']);
  });

  it('gives a camera trap’s device page a Photos tab with its gallery, filtered like the camera-trap page; another device has none', async () => {
    await page.goto(`${svc.url}/console/devices/${CAMERA}`);
    const tabs = page.getByRole('navigation', { name: 'Device sections' });
    await tabs.getByRole('link', { name: 'Photos' }).click();
    await page.waitForURL(new RegExp(`/console/devices/${CAMERA}/photos$`));
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 2);
    expect(await page.getByLabel('Camera', { exact: true }).count()).toBe(0);
    await page.getByLabel('Label').fill('deer');
    await page.getByLabel('Label').press('Enter');
    await page.waitForURL(new RegExp(`/console/devices/${CAMERA}/photos\\?label=deer$`));
    await page.waitForFunction(() => document.querySelectorAll('.gallery .thumb').length === 1);
    await page.locator(`.thumb[data-hash="${hashes['deer.jpg']}"]`).waitFor();
    await check('device-photos');

    const sensor = 'A81758FFFE0C0A01';
    await call(svc.url, 'POST', `/user/device/${sensor}`, { body: { label: 'Weather mast' }, headers: as(alice), expect: 201 });
    await page.goto(`${svc.url}/console/devices/${sensor}/photos`);
    await tabs.getByRole('link', { name: 'Live' }).waitFor();
    expect(await tabs.getByRole('link', { name: 'Photos' }).count()).toBe(0);
    await call(svc.url, 'DELETE', `/user/device/${sensor}`, { headers: as(alice), expect: 200 });
  });

  it('draws a fence on the map, lists it with the devices inside, reshapes it by dragging a corner and by its GeoJSON, and deletes it', async () => {
    await page.getByRole('link', { name: 'Fences', exact: true }).click();
    await page.getByText('No fences yet').waitFor();
    await page.getByRole('button', { name: 'New fence' }).click();
    const map = page.locator('.fence-map[data-mode="draw"]');
    await map.waitFor();
    const box = (await map.boundingBox())!;
    const corners: [number, number][] = [
      [0.3, 0.3],
      [0.7, 0.3],
      [0.7, 0.7],
      [0.3, 0.7],
    ];
    // Each click places a corner (Geoman's vertex marker; the cursor's own marker aside) before the
    // next: the click that closes the ring must land on the first corner's marker.
    const placed = map.locator('.marker-icon:not(.cursor-marker)');
    for (const [i, [x, y]] of corners.entries()) {
      await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
      await placed.nth(i).waitFor();
    }
    await page.mouse.click(box.x + box.width * corners[0]![0], box.y + box.height * corners[0]![1]);
    await page.getByText('4 corners.').waitFor();
    await page.getByLabel('Name').fill('Meadow');
    await check('fences-new');
    await page.getByRole('button', { name: 'Save fence' }).click();
    await page.getByText('Fence Meadow saved.').waitFor();
    const [fence] = (await call<{ uid: number; geometry: { coordinates: number[][][] } }[]>(svc.url, 'GET', '/user/fence', { headers: as(alice), expect: 200 }))
      .data;
    const ring = fence.geometry.coordinates[0];
    const centre = [0, 1].map((i) => ring.slice(0, 4).reduce((s, p) => s + p[i], 0) / 4);

    // The camera installed in the middle of it.
    await call(svc.url, 'POST', `/user/device/meta/${CAMERA}`, {
      body: { installation_lon: centre[0], installation_lat: centre[1] },
      headers: as(alice),
      expect: 200,
    });
    await page.reload();
    await page.locator('#fence-devices').getByRole('link', { name: 'Trail camera' }).waitFor();
    await page.locator('.fence-map[data-devices="1"]').waitFor();
    await check('fences');

    // Reshaped on the map: a corner dragged.
    await page.getByRole('button', { name: 'Edit Meadow' }).click();
    await page.locator('.fence-map[data-mode="edit"]').waitFor();
    const before = await page.getByLabel('Shape (GeoJSON Polygon)').inputValue();
    const vertex = page.locator('.leaflet-marker-pane .marker-icon:not(.marker-icon-middle)').first();
    const at = (await vertex.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    await page.mouse.move(at.x - 40, at.y - 30, { steps: 8 });
    await page.mouse.up();
    await page.waitForFunction((text) => (document.querySelector('#fence-geojson') as HTMLTextAreaElement).value !== text, before);
    // And by its GeoJSON (the keyboard's way): somewhere else, so the camera is no longer inside.
    const far = { type: 'Polygon', coordinates: [ring.map(([lon, lat]) => [lon + 1, lat])] };
    await page.getByLabel('Shape (GeoJSON Polygon)').fill(JSON.stringify(far));
    await page.getByRole('button', { name: 'Save fence' }).click();
    await page.getByText('Fence Meadow saved.').waitFor();
    await page.locator('#fence-devices').getByText('No device is inside.').waitFor();
    const saved = (await call<{ geometry: unknown }>(svc.url, 'GET', `/user/fence/${fence.uid}`, { headers: as(alice), expect: 200 })).data;
    expect(saved.geometry).toEqual(far);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Fence Meadow deleted.').waitFor();
    expect((await call<unknown[]>(svc.url, 'GET', '/user/fence', { headers: as(alice), expect: 200 })).data).toEqual([]);
  });

  it('creates a token with a name and an expiry, shows its value once, and deletes it', async () => {
    await page.getByRole('link', { name: 'Tokens', exact: true }).click();
    await page.getByLabel('Name (optional)').fill('weather station');
    await page.getByLabel('Expires (UTC, optional)').fill('2099-12-31T23:59');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = page.locator('[data-secret]');
    await secret.waitFor();
    const value = (await secret.textContent())!;
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect((await call<{ username: string }>(svc.url, 'GET', '/user', { headers: as(value), expect: 200 })).data.username).toBe(alice.username);
    const row = page.locator('tr', { hasText: 'weather station' });
    await row.getByText('2099-12-31 23:59:00').waitFor();
    await check('tokens');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('[data-secret]').count()).toBe(0);
    expect(await page.content()).not.toContain(value);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await call(svc.url, 'GET', '/user', { headers: as(value) })).status).toBe(401);
  });

  it('shows the profile and session, changes the password, and deletes an account with its password', async () => {
    // Signed in twice more (another browser, a script): every session listed, this one marked.
    const laptop = await signedIn(alice, '/console/');
    try {
      const script = await fetch(`${svc.url}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'curl/8.5.0' },
        body: JSON.stringify({ username: alice.username, password: alice.password }),
      });
      const scriptCookie = script.headers.getSetCookie()[0]!.split(';')[0]!;
      await page.getByRole('link', { name: 'Account', exact: true }).click();
      await page.locator('#profile').getByText(alice.username, { exact: true }).waitFor();
      await page.locator('#session').getByText('HttpOnly').waitFor();
      const sessions = page.locator('#sessions li[data-session]');
      await page.waitForFunction(() => document.querySelectorAll('#sessions li[data-session]').length === 3);
      await page.locator('#sessions li[data-current]').getByText('This device').waitFor();
      expect(await page.locator('#sessions li[data-current]').textContent()).toMatch(/Chrome \d+ on Linux.*in use now/);
      await sessions
        .filter({ hasText: 'curl 8.5.0' })
        .getByText(/last used just now/)
        .waitFor();
      // The other browser's "Sign out": that browser is signed out at its next request.
      const other = sessions.filter({ hasNotText: 'This device' }).filter({ hasText: /Chrome \d+/ });
      await other.getByRole('button', { name: 'Sign out' }).click();
      await other.getByRole('button', { name: 'Yes, sign out' }).click();
      await other.waitFor({ state: 'detached' });
      await laptop.getByRole('link', { name: 'Account', exact: true }).click();
      await laptop.getByText('Your session has ended').waitFor();
      // "Sign out everywhere else" ends the script's session; this one goes on.
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await page.getByRole('button', { name: 'Yes, sign out everywhere else' }).click();
      await page.getByText('One other session has ended.').waitFor();
      expect(await sessions.count()).toBe(1);
      expect((await call(svc.url, 'GET', '/user', { headers: { Cookie: scriptCookie } })).status).toBe(401);
      expect(
        (await call<{ current: boolean }[]>(svc.url, 'GET', '/user/session', { headers: { Authorization: `Bearer ${alice.master}` }, expect: 200 })).data,
      ).toHaveLength(1);
    } finally {
      await laptop.context().close();
    }

    await page.getByLabel('Current password').fill('not the password');
    await page.getByLabel('New password').fill(`${alice.password}-2`);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.locator('#password .error-box').waitFor();
    await page.getByLabel('Current password').fill(alice.password);
    await page.getByLabel('New password').fill(`${alice.password}-2`);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await page.getByText('The password is changed').waitFor();
    alice.password = `${alice.password}-2`;
    await check('account');

    // Another account, deleted from its own console.
    const carol = await account(svc.url, 'carol2');
    const carolPage = await signedIn(carol, '/console/account');
    try {
      await carolPage.getByLabel('Password, to confirm').fill(carol.password);
      await carolPage.getByRole('checkbox', { name: /cannot be undone/ }).check();
      await carolPage.getByRole('button', { name: 'Delete the account' }).click();
      await carolPage.getByText('The account is deleted').waitFor();
      const login = await call(svc.url, 'POST', '/auth/login', { body: { username: carol.username, password: carol.password } });
      expect(login.status).toBe(401);
    } finally {
      await carolPage.context().close();
    }
  });

  it('gives an administrator the figures, queues, accounts with their limits and the cache per device; nobody else sees it', async () => {
    expect(await page.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await page.goto(`${svc.url}/console/admin`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect((await call(svc.url, 'GET', '/admin/accounts', { headers: as(alice) })).status).toBe(403);

    const admin = await signedIn(ADMIN, '/console/');
    try {
      await admin.getByRole('link', { name: 'Admin', exact: true }).click();
      await admin.getByRole('heading', { name: 'Administration' }).waitFor();
      await admin.locator('#queues [data-queue]').first().waitFor();
      const row = admin.locator('#accounts tr', { hasText: alice.username });
      await row.locator('[data-devices="1"]').waitFor();
      // The row's retention has a form (and a Save) of its own.
      const limits = row.getByRole('form', { name: `Limits of ${alice.username}` });
      await limits.getByLabel('Devices at most').fill('7');
      await limits.getByRole('button', { name: 'Save' }).click();
      await limits.getByText('Saved').waitFor();
      expect((await call<{ max_devices: number }>(svc.url, 'GET', '/user', { headers: as(alice), expect: 200 })).data.max_devices).toBe(7);
      await admin
        .locator('#cache tr', { hasText: CAMERA })
        .getByRole('button', { name: `Invalidate ${CAMERA}` })
        .click();
      await admin.getByText(`${CAMERA} invalidated`).waitFor();
      await check('admin', admin);
    } finally {
      await admin.context().close();
    }
  });

  it('lets an administrator disable and enable an account, mail it a reset link, and delete one, its devices handed to another', async () => {
    const [carol, dave] = await Promise.all([account(svc.url, 'carol2'), account(svc.url, 'dave2')]);
    const eui = 'A1B2C3D4E5F60718';
    await call(svc.url, 'POST', `/user/device/${eui}`, { body: { label: 'Carol’s tracker' }, headers: as(carol), expect: 201 });
    const admin = await signedIn(ADMIN, '/console/admin');
    try {
      await admin.getByRole('heading', { name: 'Administration' }).waitFor();
      const row = admin.locator('#accounts tr', { hasText: carol.username });
      const actions = row.getByRole('group', { name: `Actions on ${carol.username}` });
      // Disabled after a second click: its token stops at once; enabled, it works again.
      await actions.getByRole('button', { name: 'Disable' }).click();
      await actions.getByRole('button', { name: 'Yes, disable' }).click();
      await actions.locator('[data-active="0"]').waitFor();
      expect((await call(svc.url, 'GET', '/user', { headers: as(carol) })).status).toBe(401);
      // Carol, with her password, is told why she cannot sign in.
      const refused = await newPage(browser);
      try {
        await refused.goto(`${svc.url}/console/`);
        await refused.getByLabel('Username or e-mail').fill(carol.username);
        await refused.getByLabel('Password').fill(carol.password);
        await refused.getByRole('button', { name: 'Sign in' }).click();
        await refused.getByRole('alert').filter({ hasText: 'this account is disabled' }).waitFor();
      } finally {
        await refused.context().close();
      }
      await actions.getByRole('button', { name: 'Enable' }).click();
      await actions.locator('[data-active="1"]').waitFor();
      expect((await call(svc.url, 'GET', '/user', { headers: as(carol) })).status).toBe(200);
      await actions.getByRole('button', { name: 'Send password reset' }).click();
      await actions.getByRole('status').filter({ hasText: 'Reset link mailed' }).waitFor();
      // The administrator's own row offers none of it.
      await admin.locator('#accounts tr', { hasText: ADMIN.username }).getByText('your own account').waitFor();
      await check('admin-account-actions', admin);

      await actions.getByRole('button', { name: 'Delete…' }).click();
      const dialog = admin.getByRole('dialog', { name: `Delete ${carol.username}` });
      await dialog.getByLabel('Hand them to another account').check();
      await dialog.getByLabel('Receiving account (username)').fill('nobody_at_all');
      await dialog.getByRole('button', { name: `Delete ${carol.username}` }).click();
      await dialog.getByText('account not found').waitFor();
      await dialog.getByLabel('Receiving account (username)').fill(dave.username);
      await check('admin-delete-account', admin);
      await admin.setViewportSize({ width: 390, height: 844 });
      await admin.screenshot({ path: join(SCREENSHOTS, 'admin-delete-account-390x844.png'), fullPage: true });
      await admin.setViewportSize({ width: 1366, height: 768 });
      await dialog.getByRole('button', { name: `Delete ${carol.username}` }).click();
      await row.waitFor({ state: 'detached' });
      const handed = await call<{ label: string }[]>(svc.url, 'GET', `/user/device/meta/${eui}`, { headers: as(dave), expect: 200 });
      expect(handed.data[0]!.label).toBe('Carol’s tracker');
      expect((await call(svc.url, 'GET', '/user', { headers: as(carol) })).status).toBe(401);

      // Each of it is in the audit log, under the administrator's name.
      const audit = admin.locator('#audit');
      await audit.getByLabel('Action contains').fill('/admin/accounts');
      await audit.getByRole('button', { name: 'Filter' }).click();
      // The deletion, and before it the one refused for a receiver that does not exist.
      const deletions = audit.locator('tbody tr', { hasText: 'DELETE /admin/accounts/{id}' });
      await deletions.filter({ has: admin.locator('[data-status="200"]') }).waitFor();
      await deletions.filter({ has: admin.locator('[data-status="404"]') }).waitFor();
      for (const action of ['PATCH /admin/accounts/{id}', 'POST /admin/accounts/{id}/password-reset'])
        await audit.locator('tbody tr', { hasText: action }).first().waitFor();
      expect(await deletions.first().textContent()).toContain(ADMIN.username);
      await check('admin-audit', admin);
      await admin.setViewportSize({ width: 390, height: 844 });
      await audit.screenshot({ path: join(SCREENSHOTS, 'admin-audit-390x844.png') });
      await admin.setViewportSize({ width: 1366, height: 768 });
    } finally {
      await admin.context().close();
    }
  });

  it('shows another account none of it', async () => {
    const other = await signedIn(bob, '/console/camera-traps');
    try {
      await other.getByText('No photos yet').waitFor();
      await other.goto(`${svc.url}/console/camera-traps/${CAMERA}/${hashes['deer.jpg']}`);
      await other.getByRole('heading', { name: 'Photo not found' }).waitFor();
      const thumb = await other.evaluate(async ([eui, hash]) => (await fetch(`/user/device/image/${eui}/${hash}/thumb`)).status, [
        CAMERA,
        hashes['deer.jpg'],
      ] as const);
      expect(thumb).toBe(404);
      await other.getByRole('link', { name: 'Fences', exact: true }).click();
      await other.getByText('No fences yet').waitFor();
      await other.getByRole('link', { name: 'Tokens', exact: true }).click();
      await other.locator('#tokens tbody tr').first().waitFor();
      expect(await other.locator('#tokens').textContent()).not.toContain('weather station');
      await check('other-account', other);
    } finally {
      await other.context().close();
    }
  });
});
