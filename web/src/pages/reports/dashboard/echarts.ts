/** The ECharts build of the report pages: only what their charts need (loaded lazily). */
import { BarChart, LineChart, MapChart, PieChart } from 'echarts/charts';
import { GeoComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

// Map and visualMap: the data screen's provinces (the map data itself is registered by screen/chinaMap.ts).
echarts.use([LineChart, BarChart, PieChart, MapChart, GeoComponent, GridComponent, LegendComponent, TooltipComponent, VisualMapComponent, CanvasRenderer]);

export { echarts };
