import RasterKit
print(BackendKind.allCases)
