import RasterKit
