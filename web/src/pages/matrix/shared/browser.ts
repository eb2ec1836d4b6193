/** Leaving the console for a platform's page in this window; an object so tests can replace it. */
export const browser = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
