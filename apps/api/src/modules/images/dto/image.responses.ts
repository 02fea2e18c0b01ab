import { ApiProperty } from '@nestjs/swagger';
import type {
  AnnotationWire,
  ImageDeletedWire,
  ImageDetailWire,
  ImageGalleryEntryWire,
  ImageLabelWire,
  ImageListEntryWire,
  ImagePredictionWire,
  ImageStatus,
  TaxonomyWire,
} from '@dts/domain';

export class TaxonomyResponse implements TaxonomyWire {
  @ApiProperty() id!: string;
  @ApiProperty() class!: string;
  @ApiProperty() order!: string;
  @ApiProperty() family!: string;
  @ApiProperty() genus!: string;
  @ApiProperty() species!: string;
}

export class AnnotationResponse implements AnnotationWire {
  @ApiProperty() id!: number;
  @ApiProperty({ type: [Number], minItems: 4, maxItems: 4, description: 'Normalised [x, y, width, height].' }) bbox!: [number, number, number, number];
  @ApiProperty({ minimum: 0, maximum: 1 }) score!: number;
  @ApiProperty({ example: 'roe deer' }) label!: string;
  @ApiProperty({ type: TaxonomyResponse, nullable: true }) taxonomy!: TaxonomyResponse | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'person',
    description:
      'Who made the box: "person" (drawn, labelled or confirmed in the console), a detector ("MegaDetector (md_v5a.0.0.pt)", "SpeciesNet 4.0.0a"), or null when unsaid.',
  })
  source!: string | null;
}

export class ImagePredictionResponse implements ImagePredictionWire {
  @ApiProperty({ example: 'african elephant', description: '"blank": the classifier saw no animal.' }) label!: string;
  @ApiProperty({ minimum: 0, maximum: 1 }) score!: number;
  @ApiProperty({ type: TaxonomyResponse, nullable: true }) taxonomy!: TaxonomyResponse | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'classifier',
    description: 'What made it, as the detector output says ("person" when set in the console).',
  })
  source!: string | null;
}

const PREDICTION = {
  type: ImagePredictionResponse,
  nullable: true,
  description: 'What a classifier said of the whole image (SpeciesNet), apart from the boxes; null when nothing was sent.',
};

const STATUS = { enum: [1, 2, 3, 4, 5], description: '1 received, 2 processing, 3 failed, 4 ready, 5 annotated (boxes or a prediction)' };

export class ImageListEntryResponse implements ImageListEntryWire {
  @ApiProperty({ example: '0c5b2f0e4a1d4c8e9f2a7b6c5d4e3f21' }) hash!: string;
  @ApiProperty() ts_photo_unix!: number;
  @ApiProperty() ts_tx_unix!: number;
  @ApiProperty() ts_sync_unix!: number;
  @ApiProperty({ type: Number, nullable: true }) lat!: number | null;
  @ApiProperty({ type: Number, nullable: true }) lon!: number | null;
  @ApiProperty({ type: [AnnotationResponse] }) annotations!: AnnotationResponse[];
  @ApiProperty(PREDICTION) prediction!: ImagePredictionResponse | null;
  @ApiProperty(STATUS) status!: ImageStatus;
  @ApiProperty() filename!: string;
}

export class ImageGalleryEntryResponse extends ImageListEntryResponse implements ImageGalleryEntryWire {
  @ApiProperty({ example: '70B3D57ED0001234', description: 'The camera.' }) devEUI!: string;
}

export class ImageMetaResponse {
  @ApiProperty() uid!: number;
  @ApiProperty({ description: 'The camera’s device uid.' }) camera_ref!: number;
  @ApiProperty() ts_photo_unix!: number;
  @ApiProperty() ts_tx_unix!: number;
  @ApiProperty() ts_sync_unix!: number;
  @ApiProperty({ type: String, nullable: true }) vendor_id!: string | null;
  @ApiProperty({ description: 'Signed, time-limited link to the image file.' }) url!: string;
  @ApiProperty({ type: Number, nullable: true }) longitude!: number | null;
  @ApiProperty({ type: Number, nullable: true }) latitude!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'JSON: width, height, format, size, content type.' }) image_details!: string | null;
  @ApiProperty({ description: 'JSON-encoded annotation array.' }) annotations!: string;
  @ApiProperty(PREDICTION) prediction!: ImagePredictionResponse | null;
  @ApiProperty(STATUS) status!: ImageStatus;
  @ApiProperty({ enum: [0, 1] }) deleted!: 0 | 1;
  @ApiProperty() filename!: string;
  @ApiProperty() hash!: string;
  @ApiProperty({ description: 'SHA-256 of the bytes.' }) bin_hash!: string;
}

class ImageThumbResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Base64 JPEG; null until the worker made it.' }) thumb!: string | null;
}

export class ImageDetailResponse implements ImageDetailWire {
  @ApiProperty() hash!: string;
  @ApiProperty({ type: ImageMetaResponse }) meta!: ImageMetaResponse;
  @ApiProperty({ type: () => ImageThumbResponse })
  images!: { thumb: string | null };
}

export class ImageDeletedResponse implements ImageDeletedWire {
  @ApiProperty() hash!: string;
  @ApiProperty({ enum: [true] }) deleted!: true;
}

export class ImageLabelResponse implements ImageLabelWire {
  @ApiProperty({ example: 'roe deer' }) label!: string;
  @ApiProperty({ type: TaxonomyResponse, nullable: true, description: 'The taxonomy most often given with the label; null when never.' })
  taxonomy!: TaxonomyResponse | null;
  @ApiProperty({ minimum: 1, description: 'Boxes and image-level predictions with this label.' }) count!: number;
}
