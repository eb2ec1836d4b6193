/** Filter drawer kit. Import the drawer itself lazily (`import('./FilterDrawer')`) where bundle size matters. */
export { default, type FilterDrawerProps } from './FilterDrawer';
export { default as FilterTrigger } from './FilterTrigger';
export * from './model';
export * from './savedFilters';
export * from './fields';
