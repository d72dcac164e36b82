/** The product named by `?id=` in the address, read from the device cache and refreshed once per id. */
import { useSearchParams } from 'react-router-dom';
import type { ProductView } from '../../../engine/index';
import { api } from '../../api';
import { useCached, type CachedResult } from '../../sync/cache';

export function useProductId(): string {
  const [params] = useSearchParams();
  return params.get('id') ?? '';
}

export function useProduct(id: string): CachedResult<ProductView> {
  return useCached(`product:${id}`, () => api.call('/api/product/detail', { id }, { silent: true }), {
    member: true,
  });
}
