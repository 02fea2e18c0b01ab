import { Injectable } from '@nestjs/common';
import {
  IMAGE_GALLERY_DEFAULT_LIMIT,
  IMAGE_LABELS_DEFAULT_LIMIT,
  type ImageGalleryEntryWire,
  type ImageGalleryMetaWire,
  type ImageLabelWire,
  normalizeEui,
  toImageGalleryEntryWire,
} from '@dts/domain';
import { ImageGalleryRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { ApiResult } from '../../common/http/api-result';
import { badCursor, cursorValues, encodeCursor } from '../../common/http/page-cursor';
import { DeviceAccessService } from '../devices/device-access.service';
import type { GalleryQueryDto } from './dto/gallery-query.dto';
import type { ImageLabelsQueryDto } from './dto/labels-query.dto';

/** A gallery cursor: the last entry's photo time (ISO) and uid. */
function decodeCursor(cursor: string): { tsPhoto: Date; uid: number } {
  const [at, uid] = cursorValues(cursor, 2);
  const time = typeof at === 'string' && at.length <= 30 ? new Date(at) : null;
  if (!time || !Number.isFinite(time.getTime()) || !Number.isInteger(uid) || (uid as number) < 1 || (uid as number) > 2_147_483_647) throw badCursor();
  return { tsPhoto: time, uid: uid as number };
}

/** The account-wide camera-trap gallery and the labels used in it. */
@Injectable()
export class ImageGalleryService {
  constructor(
    private readonly access: DeviceAccessService,
    private readonly galleries: ImageGalleryRepository,
  ) {}

  /** GET /user/image: the cameras' photos, newest first, filtered, in keyset pages. */
  async gallery(principal: AuthPrincipal, query: GalleryQueryDto): Promise<ApiResult<ImageGalleryEntryWire[]>> {
    let deviceUid: number | null = null;
    if (query.eui !== undefined) {
      const eui = normalizeEui(query.eui);
      if (!eui) throw ApiException.validation('eui', 'eui must be 16 hexadecimal characters');
      deviceUid = (await this.access.require(principal, eui)).uid;
    }
    const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
    const limit = query.limit ?? IMAGE_GALLERY_DEFAULT_LIMIT;
    const rows = await this.galleries.gallery({
      accountId: principal.accountId,
      deviceUid,
      label: text(query.label),
      species: text(query.species),
      minScore: query.min_score ?? null,
      from: query.from === undefined ? null : new Date(query.from * 1000),
      to: query.to === undefined ? null : new Date(query.to * 1000),
      // One more than asked tells whether another page follows.
      limit: limit + 1,
      after: query.cursor === undefined ? null : decodeCursor(query.cursor),
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const meta: ImageGalleryMetaWire = { next_cursor: rows.length > limit && last ? encodeCursor([last.ts_photo.toISOString(), last.uid]) : null };
    return new ApiResult(page.map(toImageGalleryEntryWire), { meta: { ...meta } });
  }

  /** GET /user/image/labels: the labels on the account's photos, the most used first (suggestions when labelling). */
  labels(principal: AuthPrincipal, query: ImageLabelsQueryDto): Promise<ImageLabelWire[]> {
    return this.galleries.labels(principal.accountId, query.limit ?? IMAGE_LABELS_DEFAULT_LIMIT);
  }
}
