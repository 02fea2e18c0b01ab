import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type Eui, IMAGE_MAX_BYTES } from '@dts/domain';
import type { Response } from 'express';
import { memoryStorage } from 'multer';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { CurrentAccount, IngestAuth, KeyRight, Public } from '../../common/auth/auth.decorators';
import { CurrentIngestCaller, type IngestCaller } from '../../common/auth/ingest-caller';
import { AcceptsMultipart } from '../../common/http/origin.guard';
import { EUI_PARAM, EuiParamPipe } from '../../common/http/eui-param.pipe';
import { sendFile } from '../../common/http/send-stream';
import { ApiEnvelope, ApiErrors } from '../../common/openapi/api-envelope.decorator';
import { GalleryQueryDto } from './dto/gallery-query.dto';
import { ImageDeletedResponse, ImageDetailResponse, ImageGalleryEntryResponse, ImageLabelResponse, ImageListEntryResponse } from './dto/image.responses';
import { ImageLabelsQueryDto } from './dto/labels-query.dto';
import { IngestImageDto, IngestImageForm, UploadImageDto, UploadImageForm } from './dto/upload-image.dto';
import { ImageGalleryService } from './image-gallery.service';
import { ImagesService } from './images.service';

/** One file of at most 20 MiB, kept in memory: it goes to the image store in one piece. */
export const UPLOAD = FileInterceptor('file', { storage: memoryStorage(), limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 20, fieldSize: 1024 } });
const HASH_PARAM = { name: 'image_hash', description: '32 hexadecimal characters' };
const IMAGE_CONTENT = { 'image/jpeg': { schema: { type: 'string', format: 'binary' } }, 'image/png': { schema: { type: 'string', format: 'binary' } } };

@ApiTags('images')
@Controller()
@KeyRight('images')
export class ImagesController {
  constructor(
    private readonly images: ImagesService,
    private readonly galleries: ImageGalleryService,
  ) {}

  @Get('user/image')
  @ApiOperation({
    summary: 'The photos of every camera of the account (or of one), newest first, filtered by detections and time, in pages',
    description:
      'At most `limit` (default 60) entries; `meta.next_cursor`, passed as `cursor` with the same filters, gives the next page (null on the last). A detection is an annotation box or the image-level prediction; `label`, `species` and `min_score` must hold for the same detection.',
  })
  @ApiEnvelope([ImageGalleryEntryResponse], {
    meta: { type: 'object', properties: { next_cursor: { type: 'string', nullable: true } } },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'QUERY_TIMEOUT')
  gallery(@CurrentAccount() me: AuthPrincipal, @Query() query: GalleryQueryDto) {
    return this.galleries.gallery(me, query);
  }

  @Get('user/image/labels')
  @ApiOperation({
    summary: 'The labels used on the photos of every camera of the account, the most used first (suggestions when labelling)',
    description: 'Boxes and image-level predictions counted together; each label with the taxonomy most often given with it. At most `limit` (default 200).',
  })
  @ApiEnvelope([ImageLabelResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'QUERY_TIMEOUT')
  labels(@CurrentAccount() me: AuthPrincipal, @Query() query: ImageLabelsQueryDto) {
    return this.galleries.labels(me, query);
  }

  @Get('user/device/image/:eui')
  @ApiOperation({ summary: 'The camera’s images, newest photo first' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope([ImageListEntryResponse])
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  list(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui) {
    return this.images.list(me, eui);
  }

  @Post('user/device/image/:eui')
  @UseInterceptors(UPLOAD)
  @AcceptsMultipart()
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadImageForm })
  @ApiOperation({ summary: 'Upload a photo (201; the same bytes again: 200 with the existing image)' })
  @ApiParam(EUI_PARAM)
  @ApiEnvelope(ImageDetailResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async upload(
    @CurrentAccount() me: AuthPrincipal,
    @Param('eui', EuiParamPipe) eui: Eui,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() fields: UploadImageDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, detail } = await this.images.uploadAsUser(me, eui, file, fields);
    res.status(created ? 201 : 200);
    return detail;
  }

  @Post('ingest/image')
  @IngestAuth()
  @UseInterceptors(UPLOAD)
  @AcceptsMultipart()
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: IngestImageForm })
  @ApiOperation({ summary: 'Upload a photo with ingest credentials, naming the camera in devEUI' })
  @ApiEnvelope(ImageDetailResponse, { status: 201 })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'INVALID_TOKEN', 'NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE')
  async ingest(
    @CurrentIngestCaller() caller: IngestCaller,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() fields: IngestImageDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, detail } = await this.images.uploadByIngest(caller, file, fields);
    res.status(created ? 201 : 200);
    return detail;
  }

  @Get('user/device/image/:eui/:image_hash')
  @ApiOperation({ summary: 'One image: metadata with a signed link, annotations and the thumbnail' })
  @ApiParam(EUI_PARAM)
  @ApiParam(HASH_PARAM)
  @ApiEnvelope(ImageDetailResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  detail(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('image_hash') hash: string) {
    return this.images.detail(me, eui, hash);
  }

  @Get('user/device/image/:eui/:image_hash/thumb')
  @ApiOperation({ summary: 'The image’s thumbnail (JPEG, longest side 320 pixels) once the worker made it; 404 before' })
  @ApiParam(EUI_PARAM)
  @ApiParam(HASH_PARAM)
  @ApiResponse({
    status: 200,
    description: 'The thumbnail, with ETag (304 for If-None-Match)',
    content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  async thumbnail(
    @CurrentAccount() me: AuthPrincipal,
    @Param('eui', EuiParamPipe) eui: Eui,
    @Param('image_hash') hash: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ) {
    sendFile(res, await this.images.thumbnail(me, eui, hash, ifNoneMatch));
  }

  @Delete('user/device/image/:eui/:image_hash')
  @ApiOperation({ summary: 'Delete an image: gone from listings at once, its bytes removed by the worker' })
  @ApiParam(EUI_PARAM)
  @ApiParam(HASH_PARAM)
  @ApiEnvelope(ImageDeletedResponse)
  @ApiErrors('VALIDATION_FAILED', 'AUTH_REQUIRED', 'NOT_FOUND')
  remove(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('image_hash') hash: string) {
    return this.images.remove(me, eui, hash);
  }

  @Post('user/device/image/:eui/:image_hash/annotations')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Set the annotations: [{bbox, score, label, taxonomy?, source?}], {annotations, prediction?}, MegaDetector batch output, or SpeciesNet predictions',
    description:
      'Replaces the boxes and the image-level prediction. Detector output is searched for the entry of the photo’s file name (a file of one entry is taken as it is); its boxes’ `source` names the detector.',
  })
  @ApiParam(EUI_PARAM)
  @ApiParam(HASH_PARAM)
  @ApiBody({
    schema: {
      oneOf: [
        {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              bbox: { type: 'array', items: { type: 'number' } },
              score: { type: 'number' },
              label: { type: 'string' },
              taxonomy: { type: 'object' },
              source: { type: 'string', nullable: true, description: '"person" for a person’s box, or the detector’s name' },
            },
          },
        },
        {
          type: 'object',
          description:
            'Our object form {annotations: [{bbox, score, label, taxonomy?, source?}], prediction?: {label, score, taxonomy?, source?}}, MegaDetector {images, detection_categories} or SpeciesNet {predictions}',
        },
      ],
    },
  })
  @ApiEnvelope(ImageDetailResponse)
  @ApiErrors('VALIDATION_FAILED', 'MALFORMED_JSON', 'AUTH_REQUIRED', 'NOT_FOUND')
  annotate(@CurrentAccount() me: AuthPrincipal, @Param('eui', EuiParamPipe) eui: Eui, @Param('image_hash') hash: string, @Body() body: unknown) {
    return this.images.annotate(me, eui, hash, body);
  }

  @Get('files/image/:image_hash')
  @Public()
  @ApiOperation({ summary: 'The image file behind a signed link (from an image detail’s meta.url); no other credentials' })
  @ApiParam(HASH_PARAM)
  // Read as they come, not validated as a DTO: any change to them, format included, is a changed
  // link (403), never a malformed request (400). Other query members are not signed and not read.
  @ApiQuery({ name: 'expires', type: String, description: 'Unix seconds after which the link no longer works (as signed).' })
  @ApiQuery({ name: 'signature', type: String, description: 'HMAC-SHA256 of the hash and expires (as signed).' })
  @ApiResponse({ status: 200, description: 'The image file, with ETag (304 for If-None-Match)', content: IMAGE_CONTENT })
  @ApiResponse({ status: 206, description: 'The requested byte range (Range: bytes=…)', content: IMAGE_CONTENT })
  @ApiErrors('VALIDATION_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'RANGE_NOT_SATISFIABLE')
  async file(
    @Param('image_hash') hash: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Headers('range') range: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ) {
    sendFile(res, await this.images.file(hash, expires, signature, { range, ifNoneMatch }));
  }
}
