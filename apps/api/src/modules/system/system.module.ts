import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { RouteCatalog } from '../../common/http/route-catalog.service';
import { SystemController } from './system.controller';

@Module({ imports: [DiscoveryModule], controllers: [SystemController], providers: [RouteCatalog], exports: [RouteCatalog] })
export class SystemModule {}
