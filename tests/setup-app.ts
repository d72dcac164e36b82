import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// Screens read the device replica, which a pull fills a few IndexedDB transactions after the first render:
// on a loaded CI machine that can take more than the library's default second. Waiting for what the
// member sees stays the rule; only the ceiling is higher.
configure({ asyncUtilTimeout: 5_000 });
